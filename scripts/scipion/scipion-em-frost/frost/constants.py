# Names shared by the frost Scipion plugin.

# Variables read from the environment or scipion.conf (pyworkflow Plugin._defineVar).
FROST_HOME = 'FROST_HOME'        # an install prefix: the programs are in $FROST_HOME/bin
FROST_BIN_DIR = 'FROST_BIN_DIR'  # a folder holding the programs, or a build tree's apps/ folder

V0_1_0 = '0.1.0'

# The programs the protocols run.
MOVIE_ALIGN = 'frost_movie_align'
ALIGN_SIGNIFICANT = 'frost_align_significant'
RECONSTRUCT_FOURIER = 'frost_reconstruct_fourier'
SIMULATE = 'frost_simulate'  # used by the plugin's tests only
PROGRAMS = [MOVIE_ALIGN, ALIGN_SIGNIFICANT, RECONSTRUCT_FOURIER]
# Each program's folder in a build tree (build/apps/<folder>/<program>).
BUILD_FOLDERS = {
    MOVIE_ALIGN: 'movie_align',
    ALIGN_SIGNIFICANT: 'align_significant',
    RECONSTRUCT_FOURIER: 'reconstruct_fourier',
    SIMULATE: 'simulate',
}

# frost's exit statuses (README): a failed run always ends the Scipion step with the status.
EXIT_MEANING = {1: 'runtime error', 2: 'usage error', 3: 'input/format error',
                4: 'device error', 130: 'interrupted', 143: 'terminated'}
