#include "abstraction/bucket_map.h"

#include <algorithm>
#include <array>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "util/bounded_input_archive.h"
#include "util/input_error.h"
#include "util/input_file.h"
#include "util/output_file.h"
#include "util/printable_text.h"

namespace hulhe {
namespace {

template <class Archive>
void serialize_round(Archive& ar, RoundBuckets& r) {
  ar(r.round, r.method, r.num_buckets, r.bucket16, r.bucket32, r.centres.rows, r.centres.cols,
     r.centres.data, r.feature, r.cost);
}

std::string payload_of(const BucketMap& m) {
  std::ostringstream os(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(m.source);
    std::uint32_t n = static_cast<std::uint32_t>(m.rounds.size());
    ar(n);
    for (const RoundBuckets& r : m.rounds) serialize_round(ar, const_cast<RoundBuckets&>(r));
  }
  return std::move(os).str();
}

}  // namespace

void RoundBuckets::set_buckets(const std::vector<std::int32_t>& buckets) {
  bucket16.clear();
  bucket32.clear();
  if (num_buckets <= 65536) {
    bucket16.assign(buckets.begin(), buckets.end());
  } else {
    bucket32.assign(buckets.begin(), buckets.end());
  }
}

std::vector<std::int64_t> RoundBuckets::counts() const {
  std::vector<std::int64_t> c(num_buckets, 0);
  const std::int64_t n = size();
  for (std::int64_t i = 0; i < n; ++i) ++c[(*this)[i]];
  return c;
}

std::uint64_t BucketMap::hash() const {
  std::string payload = payload_of(*this);
  return checksum64(payload.data(), payload.size(), game_hash ^ source_hash);
}

void BucketMap::save(const std::string& path) const {
  const std::string payload = payload_of(*this);
  const std::uint64_t sum = checksum64(payload.data(), payload.size());
  std::ostringstream header(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(header);
    std::string magic(kMagic);
    ar(magic, kFormatVersion, game_hash, source_hash, sum);
  }
  // Temporary file, fsync, rename: readers see the old map or the new one, never half.
  write_output_file(path, "bucket map", {header.view(), payload});
}

BucketMap BucketMap::load(const std::string& path, std::optional<std::uint64_t> expected_game_hash,
                          const std::string& game_name) {
  // Directories and devices are refused; the bound only keeps /dev/zero-like files out.
  const std::string bytes = read_input_file(path, "bucket map", std::uint64_t{1} << 40);
  BucketMap m;
  std::uint64_t sum = 0;
  std::uint64_t payload_start = 0;
  // Every length prefix is checked against the bytes that remain, so a crafted file cannot
  // make the reader allocate more than its own size.
  const std::string what = "bucket map '" + path + "'";
  try {
    BoundedInputArchive ar(bytes, what);
    // The magic is a cereal string: its length (8), then its bytes.
    std::uint64_t magic_length = 0;
    std::array<char, sizeof kMagic - 1> magic{};
    std::uint32_t version = 0;
    ar(magic_length);
    if (magic_length == magic.size()) ar(magic);
    if (magic_length != magic.size() || std::memcmp(magic.data(), kMagic, magic.size()) != 0)
      throw InputError("'" + path + "' is not a hulhe bucket map (bad magic)");
    ar(version);
    if (version != kFormatVersion)
      throw InputError("bucket map '" + path + "' has format version " + std::to_string(version) +
                       "; this hulhe reads version " + std::to_string(kFormatVersion));
    ar(m.game_hash, m.source_hash, sum);
    payload_start = ar.position();
  } catch (const InputError&) {
    throw;
  } catch (const std::exception&) {  // cereal::Exception: fewer bytes than a field needs
    throw InputError("bucket map '" + path + "' is truncated or corrupt (header)");
  }
  if (expected_game_hash && *expected_game_hash != m.game_hash)
    throw InputError("bucket map '" + path + "' was built for a different game (hash " +
                     hex64(m.game_hash) + ") than " + game_name + " (hash " +
                     hex64(*expected_game_hash) + ")");
  const std::string_view payload = std::string_view(bytes).substr(payload_start);
  if (checksum64(payload.data(), payload.size()) != sum)
    throw InputError("bucket map '" + path + "' is corrupt or truncated (checksum mismatch)");
  try {
    BoundedInputArchive ar(payload, what);
    ar(m.source);
    std::uint32_t n = 0;
    ar(n);
    if (n > 16) throw InputError("bucket map '" + path + "' is corrupt (round count)");
    m.rounds.resize(n);
    for (RoundBuckets& r : m.rounds) serialize_round(ar, r);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception&) {  // cereal::Exception: fewer bytes than a field needs
    throw InputError("bucket map '" + path + "' is truncated or corrupt");
  }
  for (const RoundBuckets& r : m.rounds) {
    // More buckets than hands is no abstraction, and the bound keeps every per-bucket table
    // (counts(), the solver's) within the size of the file itself.
    const bool ok =
        r.num_buckets > 0 && r.num_buckets <= r.size() &&
        r.bucket16.empty() != r.bucket32.empty() && r.centres.rows >= 0 && r.centres.cols >= 0 &&
        r.centres.rows <= static_cast<std::int64_t>(r.centres.data.size()) &&
        r.centres.data.size() == static_cast<std::size_t>(r.centres.rows) * r.centres.cols &&
        std::all_of(r.bucket16.begin(), r.bucket16.end(),
                    [&](std::uint16_t b) { return b < r.num_buckets; }) &&
        std::all_of(r.bucket32.begin(), r.bucket32.end(),
                    [&](std::uint32_t b) { return b < static_cast<std::uint32_t>(r.num_buckets); });
    if (!ok)
      throw InputError("bucket map '" + path + "' is corrupt (round " + std::to_string(r.round) +
                       ")");
  }
  return m;
}

}  // namespace hulhe
