"""What the frost protocols share: the GPU fields of Scipion's run panel and the --device argument."""
import pyworkflow.protocol.params as params
from pyworkflow.constants import RUN_JOB_GPU_PARAM_SEARCH

from .. import Plugin


class FrostProtocolBase:
    """Mixin for the frost protocols (listed first among the bases)."""

    def _defineGpuParams(self, form, useGpu=True):
        # Hidden parameters with these names become the "GPU IDs" fields of the run panel
        # (pyworkflow/gui/form.py): Yes/No for USE_GPU and the id list for GPU_LIST.
        form.addHidden(params.USE_GPU, params.BooleanParam, default=useGpu,
                       label='Use GPU',
                       help='No: run on the CPU (--device cpu), e.g. on machines without NVIDIA GPUs.')
        form.addHidden(params.GPU_LIST, params.StringParam, default='0',
                       label='GPU IDs',
                       help='GPU ids, space separated ("0 1"). frost gives MPI rank r the id '
                            'number r mod n of this list; with Scipion threads, each thread gets '
                            'its share of the list.')

    def _deviceArgs(self):
        """`--device cpu`, or `--device "%(GPU)s"`: Scipion replaces %(GPU)s by the ids given to
        the step, space separated; the quotes keep them one argument."""
        if self.usesGpu():
            return ' --device "%s"' % RUN_JOB_GPU_PARAM_SEARCH
        return ' --device cpu'

    def _runFrost(self, program, args, **kwargs):
        self.runJob(Plugin.getProgram(program), args, env=Plugin.getEnviron(), **kwargs)

    def _validateFrost(self):
        errors = Plugin.validateInstallation()
        if self.usesGpu() and not self.getGpuList():
            errors.append('Use GPU is on but no GPU id is given.')
        return errors
