"""Tests of the frost Scipion plugin.

test_convert: conversions and the exact command lines Scipion builds (GPU ids, MPI), no project.
test_protocols_frost: a Scipion project in SCIPION_USER_DATA, data made by frost_simulate,
every protocol run for real on the CPU (MPI with 2 ranks where the program supports it).
Both need the frost programs: FROST_BIN_DIR (a folder with them or a build tree's apps/ folder),
FROST_HOME or PATH. scripts/scipion/run_tests.sh sets everything up and runs them.
"""
import os
import subprocess

from pwem import Domain

from ..constants import SIMULATE

# Register the plugin as Scipion does (its variables, e.g. FROST_BIN_DIR, are defined then).
Plugin = Domain.getPluginModule('frost').Plugin


def run(program, args, cwd):
    """Runs a frost program with `args` (a list) in `cwd`; raises with its output when it fails."""
    path = Plugin.getProgram(program)
    if not os.path.isabs(path):
        raise RuntimeError('%s not found (FROST_BIN_DIR=%s)' % (program, os.environ.get('FROST_BIN_DIR')))
    done = subprocess.run([path] + list(args) + ['-v', '0'], cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if done.returncode != 0:
        raise RuntimeError('%s %s failed (%d):\n%s' % (program, ' '.join(args), done.returncode, done.stdout))


def simulate(args, cwd):
    run(SIMULATE, args, cwd)
