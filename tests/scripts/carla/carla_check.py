# SPDX-License-Identifier: ISC
"""Pendula in Carla, headless, through Carla's own host library (its
Python binding, carla_backend.py, over libcarla_standalone2.so), on the JACK
server the caller started.  Run by tests/scripts/test_carla.sh:

  python3 carla_check.py CARLA_DIR rack PLUGIN_URI...
      Carla's rack mode: each plugin alone; it must run (its block-rate
      energy or angle readout moves within 2 s).  Carla's rack and its
      internal patchbay skip, silently, a plugin with more than 32 CV or
      64 audio ports (docs/HOSTS.md, "Carla").
  python3 carla_check.py CARLA_DIR patchbay range|default
      docs/HOSTS.md's patchbay example, as written: Pendula Chaos Man CV
      with "Slow envelope (damped decay)", swh's Glame Lowpass Filter with
      its cutoff exposed as a CV port, Pendula's energy patched to it,
      reset toggled; with "range" the cutoff's scaled CV range set to 0..1
      (the README's step), with "default" left as Carla sets it.  Prints
      the cutoff range seen over 10 s.

Prints "ok: ..." / "FAIL: ..." lines and exits non-zero on a failure.
"""
import os
import subprocess
import sys
import time

carla_dir, mode = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(carla_dir, "source", "frontend"))
from carla_backend import (  # noqa: E402
    BINARY_NATIVE, CONTROL_INDEX_CV, ENGINE_OPTION_PLUGIN_PATH, ENGINE_OPTION_PROCESS_MODE,
    ENGINE_PROCESS_MODE_CONTINUOUS_RACK, ENGINE_PROCESS_MODE_MULTIPLE_CLIENTS, PLUGIN_LV2,
    CarlaHostDLL)

failed = 0


def check(ok, what):
    global failed
    print(("ok: " if ok else "FAIL: ") + what, flush=True)
    failed += 0 if ok else 1


host = CarlaHostDLL(os.path.join(carla_dir, "bin", "libcarla_standalone2.so"), False)
host.set_engine_option(ENGINE_OPTION_PROCESS_MODE,
                       ENGINE_PROCESS_MODE_CONTINUOUS_RACK if mode == "rack"
                       else ENGINE_PROCESS_MODE_MULTIPLE_CLIENTS, "")
host.set_engine_option(ENGINE_OPTION_PLUGIN_PATH, PLUGIN_LV2, os.environ["LV2_PATH"])
if not host.engine_init("JACK", "pendula-test"):
    print("FAIL: Carla's engine did not start: " + host.get_last_error())
    sys.exit(1)


def param(pid, symbol):
    for i in range(host.get_parameter_count(pid)):
        if host.get_parameter_info(pid, i)["symbol"] == symbol:
            return i
    return None


def idle(seconds):
    end = time.time() + seconds
    while time.time() < end:
        host.engine_idle()
        time.sleep(0.02)


def watch(pid, index, seconds):
    seen = []
    end = time.time() + seconds
    while time.time() < end:
        host.engine_idle()
        seen.append(host.get_current_parameter_value(pid, index))
        time.sleep(0.05)
    return seen


if mode == "rack":
    for uri in sys.argv[3:]:
        ok = host.add_plugin(BINARY_NATIVE, PLUGIN_LV2, "", "", uri, 0, None, 0)
        check(ok, "Carla loads " + uri)
        if not ok:
            continue
        readout = next(i for i in (param(0, sym) for sym in ("theta1_ctl", "x1_ctl", "x_ctl"))
                       if i is not None)
        seen = watch(0, readout, 2.0)
        check(max(seen) - min(seen) > 0.01,
              "%s runs in Carla's rack (%s over %.3f .. %.3f)" % (
                  uri, host.get_parameter_info(0, readout)["symbol"], min(seen), max(seen)))
        host.remove_plugin(0)
        idle(0.2)
else:
    check(host.add_plugin(BINARY_NATIVE, PLUGIN_LV2, "", "", "https://pendula.invalid/plugins/pendula#parallel-cv",
                          0, None, 0), "Carla loads Pendula Chaos Man CV")
    check(host.add_plugin(BINARY_NATIVE, PLUGIN_LV2, "", "", "http://plugin.org.uk/swh-plugins/lowpass_iir",
                          0, None, 0), "Carla loads the Glame Lowpass Filter")
    names = [host.get_program_name(0, i) for i in range(host.get_program_count(0))]
    check("Slow envelope (damped decay)" in names, "the preset is one of Carla's programs")
    host.set_program(0, names.index("Slow envelope (damped decay)"))
    cutoff = param(1, "cutoff")
    host.set_parameter_mapped_control_index(1, cutoff, CONTROL_INDEX_CV)  # "Expose as CV port"
    if sys.argv[3] == "range":
        host.set_parameter_mapped_range(1, cutoff, 0.0, 1.0)  # "Range (Scaled CV input)"
    idle(0.5)
    ports = subprocess.run(["jack_lsp"], capture_output=True, text=True).stdout.split("\n")
    src = [p for p in ports if p == "Pendula Chaos Man CV:Energy"]
    dst = [p for p in ports if p.startswith("Glame Lowpass Filter:") and "Cutoff" in p]
    check(len(src) == 1 and len(dst) == 1, "the ports to patch: %s, %s" % (src, dst))
    if len(src) == 1 and len(dst) == 1:
        check(subprocess.run(["jack_connect", src[0], dst[0]]).returncode == 0,
              "energy patched to the cutoff's CV input")
    reset = param(0, "reset")
    host.set_parameter_value(0, reset, 1.0)
    idle(0.3)
    host.set_parameter_value(0, reset, 0.0)
    seen = watch(1, cutoff, 10.0)
    lo, hi = min(seen), max(seen)
    print("cutoff seen: %.1f .. %.1f Hz (its range 4.8 .. 21600 Hz)" % (lo, hi), flush=True)
    if sys.argv[3] == "range":
        check(hi > 5000.0 and lo < 20.0, "the cutoff opens above 5 kHz and closes below 20 Hz")
    else:
        check(hi < 5.0, "without the range step the cutoff stays at its minimum (as the README warns)")
host.engine_close()
sys.exit(1 if failed else 0)
