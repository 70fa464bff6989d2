#pragma once
/// @file problem_key.hpp
/// @brief The problem part of a tuning key (docs/tune.md#key): `name=value` fields joined by
/// ';' in the kernel's order, e.g. `spec=156x79;vol=315x315x158;cplx=f32;blob_r=1.900;batch<=2048`.
/// Size fields (edges "AxBxC", batch buckets "name<=N") are where two problems may differ and
/// still be similar (docs/tune.md#lookup-order).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace frost::tuning {

class ProblemKey {
public:
  struct Field {
    std::string name;
    std::string op; ///< "=" or "<=" (buckets)
    std::string value;
  };

  /// A setting compared as text. Names are identifiers; values must not contain '|' or ';'.
  ProblemKey& text(const std::string& name, const std::string& value);
  ProblemKey& integer(const std::string& name, std::int64_t value);
  /// A floating-point setting, printed with three decimals (docs/tune.md#key).
  ProblemKey& real(const std::string& name, double value);
  /// A size: positive edges joined by 'x' ("156x79").
  ProblemKey& size(const std::string& name, const std::vector<std::int64_t>& edges);
  /// A count bucketed to the next power of two: "name<=2048" for 1500.
  ProblemKey& bucket(const std::string& name, std::int64_t count);

  const std::vector<Field>& fields() const { return fields_; }
  std::string str() const;
  /// The fields of a problem-key text, or nullopt when it is not one.
  static std::optional<ProblemKey> parse(const std::string& text);

private:
  ProblemKey& add(const std::string& name, const std::string& op, const std::string& value);
  std::vector<Field> fields_;
};

/// The smallest power of two >= n (1 for n <= 1).
std::int64_t bucket_of(std::int64_t n);

/// How far apart two problems are in their size fields.
struct SizeDistance {
  double max_log_ratio = 0; ///< largest |ln(edge / edge_ref)| over all edges of the size fields
  double sum_log_ratio = 0; ///< sum of the same terms (breaks ties)
  /// The largest edge ratio (>= 1).
  double max_ratio() const;
};

/// The size distance between problem keys `key` and `ref` when they differ at most in the
/// fields named in `size_fields` (same field names, operators and edge counts), else nullopt.
std::optional<SizeDistance> size_distance(const std::string& key, const std::string& ref,
                                          const std::vector<std::string>& size_fields);

/// Largest edge ratio a similar record may have (docs/tune.md#lookup-order, from the published
/// portability table).
constexpr double kMaxSimilarRatio = 1.5;

} // namespace frost::tuning
