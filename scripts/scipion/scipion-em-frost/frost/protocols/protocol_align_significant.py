"""frost_align_significant as a Scipion protocol: projection poses of particles against a map."""
import os

import pyworkflow.object as pwobj
import pyworkflow.protocol.constants as cons
import pyworkflow.protocol.params as params
import pyworkflow.utils as pwutils
from pwem.emlib.image import ImageHandler
from pwem.protocols import ProtAlign2D

from .. import convert
from ..constants import ALIGN_SIGNIFICANT
from .protocol_base import FrostProtocolBase


class ProtFrostAlignSignificant(FrostProtocolBase, ProtAlign2D):
    """Assigns a projection direction, in-plane rotation and shift to every particle with
    frost_align_significant (Xmipp's align significant): references are projected from the input
    map over one asymmetric unit, every particle is aligned to every reference, and the best
    reference (highest correlation, or the best of --keepBestN) gives the particle's pose.
    MPI ranks split the particles; each rank takes one GPU of the list in turn.
    """
    _label = 'align significant'

    # --------------------------- DEFINE param functions -----------------------
    def _defineAlignParams(self, form):
        form.addParam('inputVolume', params.PointerParam, pointerClass='Volume', important=True,
                      label='Reference map',
                      help='The references are its projections; same box and pixel size as the particles.')
        form.addParam('symmetryGroup', params.StringParam, default='c1', label='Symmetry',
                      help='Point group of the map (c1, cN, dN, t, o, i, ...): the gallery covers one '
                           'asymmetric unit.')
        form.addParam('angularSampling', params.FloatParam, default=5.0,
                      label='Angular sampling (deg)', help='Step of the reference gallery (--sampling).')
        line = form.addLine('Tilt range (deg)', expertLevel=cons.LEVEL_ADVANCED)
        line.addParam('minTilt', params.FloatParam, default=0, label='min')
        line.addParam('maxTilt', params.FloatParam, default=180, label='max')
        form.addParam('keepBestN', params.IntParam, default=1, expertLevel=cons.LEVEL_ADVANCED,
                      label='References kept per particle',
                      help='frost writes this many poses per particle; the output set keeps the one '
                           'with the highest correlation.')
        form.addParam('angDistance', params.FloatParam, default=10, expertLevel=cons.LEVEL_ADVANCED,
                      label='Neighbourhood radius (deg)', help='Radius of the significance weights.')
        form.addParam('maxShiftPx', params.FloatParam, default=-1, expertLevel=cons.LEVEL_ADVANCED,
                      label='Maximum shift (px)', help='Reject poses with a larger shift; -1 = no limit.')
        form.addParam('extraParams', params.StringParam, default='', expertLevel=cons.LEVEL_ADVANCED,
                      label='Additional parameters',
                      help='Other frost_align_significant options, e.g. --iters 4 --check-mirrors.')
        form.addParallelSection(threads=1, mpi=1)
        self._defineGpuParams(form)

    # --------------------------- INSERT steps functions -----------------------
    def _insertAllSteps(self):
        self._insertFunctionStep(self.convertInputStep, needsGPU=False)
        self._insertFunctionStep(self.alignStep)
        self._insertFunctionStep(self.createOutputStep, needsGPU=False)

    # --------------------------- STEPS functions ------------------------------
    def convertInputStep(self):
        convert.writeParticlesXmd(self.inputParticles.get(), self._getImagesFile())
        volume = self.inputVolume.get().getFileName()
        if os.path.splitext(volume)[1].lower() in ('.mrc', '.map'):
            pwutils.createAbsLink(volume, self._getVolumeFile())
        else:
            ImageHandler().convert(self.inputVolume.get(), self._getVolumeFile())

    def alignStep(self):
        self._runFrost(ALIGN_SIGNIFICANT, self._getArgs(), numberOfMpi=self.numberOfMpi.get())

    def _getArgs(self):
        args = ' -i "%s"' % os.path.abspath(self._getImagesFile())
        args += ' -o "%s"' % os.path.abspath(self._getAnglesFile())
        args += ' --volume "%s"' % os.path.abspath(self._getVolumeFile())
        args += ' --sampling %f --sym %s --min-tilt %f --max-tilt %f' % (
            self.angularSampling.get(), self.symmetryGroup.get(), self.minTilt.get(), self.maxTilt.get())
        args += ' --keepBestN %d --angDistance %f' % (self.keepBestN.get(), self.angDistance.get())
        if self.maxShiftPx.get() >= 0:
            args += ' --max-shift %f' % self.maxShiftPx.get()
        args += ' --pixel-size %f' % self.inputParticles.get().getSamplingRate()
        args += ' --thr %d' % max(1, self.numberOfThreads.get())
        args += self._deviceArgs()
        if self.extraParams.get():
            args += ' ' + self.extraParams.get()
        return args

    def createOutputStep(self):
        inputSet = self.inputParticles.get()
        poses = convert.readBestPoses(self._getAnglesFile())

        def updateParticle(particle, row=None):
            pose = poses.get(particle.getObjId())
            if pose is None:  # frost writes every input image: a missing row would be a bug
                particle._appendItem = False
                return
            particle.setTransform(convert.projectionFromRow(pose))
            particle._frost_maxCC = pwobj.Float(float(pose['maxCC']))
            particle._frost_weight = pwobj.Float(float(pose['weight']))
            particle._frost_ref = pwobj.Integer(int(pose['ref']))

        outputSet = self._createSetOfParticles()
        outputSet.copyInfo(inputSet)
        outputSet.setAlignmentProj()
        outputSet.copyItems(inputSet, updateItemCallback=updateParticle)
        self._defineOutputs(outputParticles=outputSet)
        self._defineTransformRelation(self.inputParticles, outputSet)

    # --------------------------- UTILS functions ------------------------------
    def _getImagesFile(self):
        return self._getExtraPath('input_particles.xmd')

    def _getVolumeFile(self):
        return self._getTmpPath('reference.mrc')

    def _getAnglesFile(self):
        return self._getExtraPath('angles.xmd')

    # --------------------------- INFO functions -------------------------------
    def _validate(self):
        errors = self._validateFrost()
        parts, vol = self.inputParticles.get(), self.inputVolume.get()
        if parts is not None and vol is not None:
            if parts.getXDim() != vol.getXDim():
                errors.append('The map is %d px but the particles are %d px.'
                              % (vol.getXDim(), parts.getXDim()))
            if abs(parts.getSamplingRate() - vol.getSamplingRate()) > 1e-3 * parts.getSamplingRate():
                errors.append('The map is %.3f A/px but the particles are %.3f A/px.'
                              % (vol.getSamplingRate(), parts.getSamplingRate()))
        if self.keepBestN.get() < 1:
            errors.append('Keep at least one reference per particle.')
        return errors

    def _summary(self):
        if not hasattr(self, 'outputParticles'):
            return ['Output is not ready yet.']
        return ['%d particles aligned against %s projections every %.1f deg (%s).'
                % (self.outputParticles.getSize(), self.symmetryGroup.get(),
                   self.angularSampling.get(), 'GPU' if self.usesGpu() else 'CPU')]
