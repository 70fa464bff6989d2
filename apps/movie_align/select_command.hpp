#pragma once
// `frost_movie_align select` (docs/session.md#curation): the done movies of a live session that
// pass quality thresholds, written as a RELION STAR and an Xmipp list.
#include "frost/cli/program.hpp"

namespace frost::movie_align {

class SelectCommand : public cli::Program {
public:
  SelectCommand();

protected:
  void define(cli::Params& p) override;
  int run() override;
};

} // namespace frost::movie_align
