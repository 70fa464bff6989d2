#pragma once
// `frost_movie_align trajectories` (docs/movie_align.md#querying-the-motion): the shift of given
// coordinates at every frame, from an alignment STAR file.
#include "frost/cli/program.hpp"

namespace frost::movie_align {

class TrajectoriesCommand : public cli::Program {
public:
  TrajectoriesCommand();

protected:
  void define(cli::Params& p) override;
  int run() override;
};

} // namespace frost::movie_align
