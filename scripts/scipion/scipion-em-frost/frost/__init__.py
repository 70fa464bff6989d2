"""Scipion plugin for frost: movie alignment, align significant and Fourier reconstruction.

The plugin does not install frost: build it (README of the frost repository) and either install it
(`cmake --install build --prefix <dir>`, then FROST_HOME=<dir>), or point FROST_BIN_DIR at a folder
with the programs (a build tree's `apps/` folder works too), or put them on PATH.
"""
import os
import shutil

import pwem
import pyworkflow.utils as pwutils
from pyworkflow import SPA

from .constants import (BUILD_FOLDERS, FROST_BIN_DIR, FROST_HOME, PROGRAMS, V0_1_0)

__version__ = '0.1.0'
_references = []


class Plugin(pwem.Plugin):
    _homeVar = FROST_HOME
    _pathVars = []
    _supportedVersions = [V0_1_0]
    _url = ''
    _processingField = [SPA]

    @classmethod
    def _defineVariables(cls):
        cls._defineEmVar(FROST_HOME, 'frost-%s' % V0_1_0,
                         description='Install prefix of frost (programs in $FROST_HOME/bin).')
        cls._defineVar(FROST_BIN_DIR, '',
                       description='Folder with the frost programs, or a build tree\'s apps/ folder; '
                                   'searched before FROST_HOME and PATH.')

    @classmethod
    def _candidates(cls, program):
        binDir = cls.getVar(FROST_BIN_DIR)
        if binDir:
            yield os.path.join(binDir, program)
            folder = BUILD_FOLDERS.get(program)
            if folder:  # a build tree: build/apps/<folder>/<program>
                yield os.path.join(binDir, folder, program)
                yield os.path.join(binDir, 'apps', folder, program)
        home = cls.getHome()
        if home:
            yield os.path.join(home, 'bin', program)

    @classmethod
    def getProgram(cls, program):
        """Absolute path of a frost program: FROST_BIN_DIR, then FROST_HOME/bin, then PATH.
        The bare name when it is nowhere (the run then fails with the shell's 'not found')."""
        for path in cls._candidates(program):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return os.path.abspath(path)
        return shutil.which(program) or program

    @classmethod
    def getEnviron(cls):
        """The environment of the frost programs: the caller's, with the programs' folder first on
        PATH (Scipion resolves the program of an MPI run through this PATH)."""
        environ = pwutils.Environ(os.environ)
        folders = {os.path.dirname(cls.getProgram(p)) for p in PROGRAMS}
        for folder in sorted(f for f in folders if f):
            environ.set('PATH', folder, position=pwutils.Environ.BEGIN)
        return environ

    @classmethod
    def validateInstallation(cls):
        missing = [p for p in PROGRAMS if not os.path.isabs(cls.getProgram(p))]
        if missing:
            return ['frost programs not found: %s. Set %s (a folder with the programs or a build '
                    'tree\'s apps/ folder), %s (an install prefix, programs in bin/) or PATH.'
                    % (', '.join(missing), FROST_BIN_DIR, FROST_HOME)]
        return []

    @classmethod
    def defineBinaries(cls, env):
        # frost is built from its own repository (CMake, optional CUDA); Scipion's installer does
        # not build it. See the module docstring for how the plugin finds the programs.
        pass
