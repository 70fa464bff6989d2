"""frost_reconstruct_fourier as a Scipion protocol: a map (and half maps, FSC) from aligned particles."""
import os

import pyworkflow.protocol.constants as cons
import pyworkflow.protocol.params as params
from pwem.objects import FSC, Volume
from pwem.protocols import ProtReconstruct3D

from .. import convert
from ..constants import RECONSTRUCT_FOURIER
from .protocol_base import FrostProtocolBase

CTF_INVERT, CTF_WIENER = 0, 1


class ProtFrostReconstructFourier(FrostProtocolBase, ProtReconstruct3D):
    """Reconstructs a map from particles with projection alignment by direct Fourier inversion
    (frost_reconstruct_fourier, Xmipp's reconstruct_fourier): every image is inserted as a central
    slice with a Kaiser-Bessel kernel, once per symmetry element; optionally CTF corrected,
    with two half maps and their FSC. With MPI, images are spread over the ranks and the grids
    reduced once; each rank takes one GPU of the list in turn (no master rank: MPIs = GPUs).
    """
    _label = 'reconstruct fourier'

    # --------------------------- DEFINE param functions -----------------------
    def _defineParams(self, form):
        form.addSection(label='Input')
        form.addParam('inputParticles', params.PointerParam, pointerClass='SetOfParticles',
                      pointerCondition='hasAlignmentProj', important=True, label='Input particles',
                      help='Particles with projection alignment (angles and shifts).')
        form.addParam('symmetryGroup', params.StringParam, default='c1', label='Symmetry',
                      help='c1, cN, dN, t, o, i, i1-i4, ... (--sym)')
        form.addParam('maxRes', params.FloatParam, default=-1, label='Maximum resolution (A)',
                      help='Frequencies beyond it are not inserted; -1 = up to Nyquist.')
        form.addParam('doCTF', params.BooleanParam, default=True, label='Correct the CTF?',
                      help='Uses the CTF of the particles (when they have one).')
        form.addParam('ctfMode', params.EnumParam, default=CTF_INVERT, condition='doCTF',
                      choices=['invert (Xmipp)', 'wiener (RELION)'],
                      display=params.EnumParam.DISPLAY_HLIST, label='CTF correction',
                      help='invert: thresholded inversion (--minCTF); wiener: sum(CTF F) / sum(CTF^2).')
        form.addParam('splitHalves', params.BooleanParam, default=True, label='Half maps and FSC?',
                      help='Also reconstruct two half maps (rlnRandomSubset when the particles have it, '
                           'else a random split) and their FSC.')
        form.addParam('pad', params.FloatParam, default=2, expertLevel=cons.LEVEL_ADVANCED,
                      label='Padding factor')
        form.addParam('fast', params.BooleanParam, default=False, expertLevel=cons.LEVEL_ADVANCED,
                      label='Fast (approximate) insertion?', help='--fast')
        form.addParam('extraParams', params.StringParam, default='', expertLevel=cons.LEVEL_ADVANCED,
                      label='Additional parameters',
                      help='Other frost_reconstruct_fourier options, e.g. --blob 1.9 0 15 --weight.')
        form.addParallelSection(threads=1, mpi=1)
        self._defineGpuParams(form)

    # --------------------------- INSERT steps functions -----------------------
    def _insertAllSteps(self):
        self._insertFunctionStep(self.convertInputStep, needsGPU=False)
        self._insertFunctionStep(self.reconstructStep)
        self._insertFunctionStep(self.createOutputStep, needsGPU=False)

    # --------------------------- STEPS functions ------------------------------
    def convertInputStep(self):
        parts = self.inputParticles.get()
        extra = {}
        first = parts.getFirstItem()
        if first is not None and first.hasAttribute('_rlnRandomSubset'):
            extra['rlnRandomSubset'] = lambda p: int(p.getAttributeValue('_rlnRandomSubset', 1))
        convert.writeParticlesXmd(parts, self._getInputFile(), withAlignment=True,
                                  withCtf=self._useCtf(), extraLabels=extra)

    def reconstructStep(self):
        self._runFrost(RECONSTRUCT_FOURIER, self._getArgs(), numberOfMpi=self.numberOfMpi.get())

    def _getArgs(self):
        parts = self.inputParticles.get()
        ts = parts.getSamplingRate()
        digital = 0.5 if self.maxRes.get() <= 0 else min(0.5, ts / self.maxRes.get())
        args = ' -i "%s"' % os.path.abspath(self._getInputFile())
        args += ' -o "%s"' % os.path.abspath(self._getVolumeFile())
        args += ' --sym %s --max_resolution %f --padding %f %f --sampling %f' % (
            self.symmetryGroup.get(), digital, self.pad.get(), self.pad.get(), ts)
        if self._useCtf():
            args += ' --useCTF --ctf_mode %s' % ('wiener' if self.ctfMode.get() == CTF_WIENER else 'invert')
            if parts.isPhaseFlipped():
                args += ' --phaseFlipped'
        if self.splitHalves:
            args += ' --halves'
        if self.fast:
            args += ' --fast'
        args += ' --thr %d' % max(1, self.numberOfThreads.get())
        args += self._deviceArgs()
        if self.extraParams.get():
            args += ' ' + self.extraParams.get()
        return args

    def createOutputStep(self):
        parts = self.inputParticles.get()
        volume = Volume(location=self._getVolumeFile())
        volume.setSamplingRate(parts.getSamplingRate())
        outputs = {'outputVolume': volume}
        if self.splitHalves:
            volume.setHalfMaps([self._getVolumeFile('_half1'), self._getVolumeFile('_half2')])
            fsc = FSC(objLabel='half maps')
            fsc.setData(*convert.readFsc(self._getVolumeFile('_fsc', '.star')))
            outputs['outputFSC'] = fsc
        self._defineOutputs(**outputs)
        self._defineSourceRelation(self.inputParticles, volume)
        if 'outputFSC' in outputs:
            self._defineSourceRelation(self.inputParticles, outputs['outputFSC'])

    # --------------------------- UTILS functions ------------------------------
    def _useCtf(self):
        return bool(self.doCTF.get()) and self.inputParticles.get().hasCTF()

    def _getInputFile(self):
        return self._getExtraPath('input_particles.xmd')

    def _getVolumeFile(self, suffix='', ext='.mrc'):
        return self._getExtraPath('output_volume%s%s' % (suffix, ext))

    # --------------------------- INFO functions -------------------------------
    def _validate(self):
        errors = self._validateFrost()
        if self.pad.get() < 1:
            errors.append('The padding factor must be at least 1.')
        parts = self.inputParticles.get()
        if (parts is not None and self._useCtf() and parts.isPhaseFlipped()
                and self.ctfMode.get() == CTF_WIENER):
            errors.append('The particles are phase flipped: use the "invert" CTF correction '
                          '(frost\'s wiener mode expects unflipped images).')
        return errors

    def _summary(self):
        if not hasattr(self, 'outputVolume'):
            return ['Output is not ready yet.']
        lines = ['Map from %d particles, symmetry %s (%s%s).'
                 % (self.inputParticles.get().getSize(), self.symmetryGroup.get(),
                    'GPU' if self.usesGpu() else 'CPU',
                    ', %d MPI ranks' % self.numberOfMpi.get() if self.numberOfMpi.get() > 1 else '')]
        if hasattr(self, 'outputFSC'):
            lines.append('Half-map FSC 0.143: %s A.' % self.outputFSC.calculateResolution())
        return lines
