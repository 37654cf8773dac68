"""Which of ONNX Runtime's providers can run on this machine, and whether each takes the provider
options given, asked of ONNX Runtime by making a one-node session on each provider at the hello.

ONNX Runtime lists the providers its package was built with (get_available_providers), also
those whose device or libraries this machine lacks: a session asking for one is made on the CPU
provider instead, with a warning on stderr. So each provider but the CPU one gets a session of
its own: one it is missing from cannot run here, and is reported unavailable with what ONNX
Runtime said (its cases SKIP with that reason). A provider that runs, but not with the
provider_option.<provider>.<key> options given, is an error naming those options and quoting
ONNX Runtime.
"""

import contextlib
import os
import re
import sys
import tempfile

CPU = "CPUExecutionProvider"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SAID = re.compile(r"error|fail|invalid|not available|cannot|unable", re.IGNORECASE)


class ProviderOptionError(Exception):
    pass


@contextlib.contextmanager
def captured_stderr(into):
    """Points descriptor 2 at a temporary file for the block, appending what landed there to the
    list `into`."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            into.append(capture.read().decode("utf-8", "replace"))


def what_was_said(text):
    """The lines of ONNX Runtime's console output that say what went wrong, on one line."""
    lines = [ANSI.sub("", line).strip(" *") for line in text.splitlines()]
    said = [line for line in lines if SAID.search(line) and line != "EP Error"]
    return " / ".join(said)[:600] or "it said nothing"


def session_providers(ort, model, provider, options):
    """(the providers a one-node session asking for `provider` got, what ONNX Runtime said)."""
    said = []
    session_options = ort.SessionOptions()
    session_options.log_severity_level = 2
    with captured_stderr(said):
        try:
            got = ort.InferenceSession(model, session_options, providers=[provider],
                                       provider_options=[options]).get_providers()
        except Exception as exc:  # ONNX Runtime's own exception types
            print(str(exc), file=sys.stderr)
            got = []
    return got, what_was_said("".join(said))


def unavailable_providers(ort, providers, provider_options, model):
    """{provider: why it cannot run here} for `providers` (the CPU provider always can). Raises
    ProviderOptionError, naming the options and quoting ONNX Runtime, when a provider that runs
    here refuses its `provider_options`."""
    unavailable = {}
    for provider in providers:
        if provider == CPU:
            continue
        got, said = session_providers(ort, model, provider, {})
        if provider not in got:
            unavailable[provider] = ("ONNX Runtime %s cannot create %s on this machine (no "
                                     "device, or its libraries are missing): %s"
                                     % (ort.__version__, provider, said))
            continue
        options = provider_options.get(provider, {})
        if not options:
            continue
        got, said = session_providers(ort, model, provider, options)
        if provider not in got:
            named = ", ".join("provider_option.%s.%s=%s" % (provider, k, v)
                              for k, v in sorted(options.items()))
            raise ProviderOptionError("runtime option %s: ONNX Runtime %s's %s refuses it: %s"
                                      % (named, ort.__version__, provider, said))
    return unavailable
