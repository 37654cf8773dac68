"""The ONNX Runtime adapter's runtime options (`--runtime-option key=value`, the hello's
"options"), checked as a whole before any session is made: an unknown key, a provider ONNX Runtime
does not offer or a severity outside 0..4 is an error naming the option.

    providers=A,B,...                    provider priority list
    provider_option.<provider>.<key>=v   one option of one provider
    session_config.<key>=v               one session config entry
    log_severity=0..4                    ONNX Runtime's log severity (default 3, errors only)
"""

DEFAULT_LOG_SEVERITY = 3  # ORT_LOGGING_LEVEL_ERROR: its warnings do not reach the console
KEYS = ("providers, provider_option.<provider>.<key>, session_config.<key> and "
        "log_severity")


class OptionError(Exception):
    pass


class RuntimeOptions:
    def __init__(self):
        self.providers = []         # the priority list, [] when not given
        self.provider_options = {}  # {provider: {key: value}}
        self.session_config = {}    # {key: value}
        self.log_severity = DEFAULT_LOG_SEVERITY

    def session_providers(self, requested):
        """The providers a session gets for a load asking for `requested`: those, then the
        priority list's others in its order."""
        return list(requested) + [p for p in self.providers if p not in requested]


def parse(options, available):
    """RuntimeOptions from the hello's {key: value} strings; `available` are the providers this
    ONNX Runtime offers. Raises OptionError naming the option at fault."""
    parsed = RuntimeOptions()
    for key, value in sorted(options.items()):
        if not isinstance(value, str):
            raise OptionError("runtime option '%s': expected a string value" % key)
        if key == "providers":
            parsed.providers = provider_list(value, available)
        elif key.startswith("provider_option."):
            provider, _, name = key[len("provider_option."):].partition(".")
            known_provider(key, provider, available)
            if not name:
                raise OptionError("runtime option '%s': expected provider_option.<provider>."
                                  "<key>=<value>" % key)
            parsed.provider_options.setdefault(provider, {})[name] = value
        elif key.startswith("session_config.") and len(key) > len("session_config."):
            parsed.session_config[key[len("session_config."):]] = value
        elif key == "log_severity":
            if value not in ("0", "1", "2", "3", "4"):
                raise OptionError("runtime option 'log_severity': expected 0 (verbose) to 4 "
                                  "(fatal), got '%s'" % value)
            parsed.log_severity = int(value)
        else:
            raise OptionError("unknown runtime option '%s'; the ONNX Runtime adapter takes %s"
                              % (key, KEYS))
    return parsed


def provider_list(value, available):
    providers = value.split(",")
    for p in providers:
        known_provider("providers", p, available)
    if len(set(providers)) != len(providers):
        raise OptionError("runtime option 'providers': '%s' names a provider twice" % value)
    return providers


def known_provider(key, provider, available):
    if provider not in available:
        raise OptionError("runtime option '%s': unknown execution provider '%s'; ONNX Runtime "
                          "offers: %s" % (key, provider, ", ".join(available)))
