"""The OpenVINO adapter's runtime options (`--runtime-option key=value`, the hello's "options"),
checked as a whole at the hello: an unknown form of key, a device the adapter does not offer, or
a property OpenVINO refuses for a device is an error naming the option.

    config.<KEY>=value    a compile_model property for every device
    <DEVICE>.<KEY>=value  a compile_model property for one device (CPU, GPU)

Every compile also gets EXECUTION_MODE_HINT=ACCURACY (OpenVINO otherwise may run float32 models
in bf16 or f16, which no golden allows) and INFERENCE_NUM_THREADS from the load, unless an
option sets them.
"""

DEFAULTS = {"EXECUTION_MODE_HINT": "ACCURACY"}
FORMS = "config.<KEY>=<value> or <DEVICE>.<KEY>=<value>"


class OptionError(Exception):
    pass


class RuntimeOptions:
    def __init__(self):
        self.properties = {}  # {device: {KEY: value}}, "config" options copied to each device
        self.option_of = {}   # {(device, KEY): the option's own key}, for messages

    def config_for(self, device, threads):
        """The compile_model properties for a load on `device` with `threads` intra-op threads."""
        config = dict(DEFAULTS)
        if device == "CPU":
            config["INFERENCE_NUM_THREADS"] = str(threads)
        config.update(self.properties.get(device, {}))
        return config


def parse(options, devices):
    """RuntimeOptions from the hello's {key: value} strings; raises OptionError naming the option
    at fault."""
    parsed = RuntimeOptions()
    for key, value in sorted(options.items()):
        if not isinstance(value, str):
            raise OptionError("runtime option '%s': expected a string value" % key)
        scope, _, name = key.partition(".")
        if not name or not scope:
            raise OptionError("unknown runtime option '%s'; the OpenVINO adapter takes %s"
                              % (key, FORMS))
        if scope == "config":
            targets = devices
        elif scope in devices:
            targets = [scope]
        else:
            raise OptionError("runtime option '%s': unknown device '%s'; the OpenVINO adapter "
                              "offers: %s (or config.<KEY> for all)" % (key, scope,
                                                                         ", ".join(devices)))
        for device in targets:
            parsed.properties.setdefault(device, {})[name] = value
            parsed.option_of[(device, name)] = key
    return parsed


def check_with(core, options, unavailable):
    """Raises OptionError, naming the option, the device and what OpenVINO said, when a device
    here does not take a property. Devices in `unavailable` cannot be asked and are not checked."""
    for device, properties in sorted(options.properties.items()):
        if device in unavailable:
            continue
        supported = set(core.get_property(device, "SUPPORTED_PROPERTIES"))
        for name, value in sorted(properties.items()):
            option = options.option_of[(device, name)]
            if name not in supported:
                raise OptionError("runtime option '%s': OpenVINO's %s device has no property "
                                  "'%s'" % (option, device, name))
            try:
                core.set_property(device, {name: value})
            except Exception as exc:  # OpenVINO's own exception types
                raise OptionError("runtime option '%s': OpenVINO's %s device refuses %s=%s: %s"
                                  % (option, device, name, value, str(exc).strip()[:400]))
