#pragma once
// Reading cereal portable-binary data from bytes already in memory without trusting its
// length prefixes. cereal resizes a vector or string to the length its prefix announces
// before reading the elements, so a few crafted bytes could make it allocate gigabytes
// (bad_alloc at best; under ASan, or just below the machine's memory, much worse). Here every
// length is first checked against the bytes that remain: a length the input cannot hold is an
// InputError at once, and the largest allocation is bounded by the input's size.
//
// The format is cereal's (a flag byte for the writer's endianness, lengths as u64, elements
// as raw little-endian values), so files written by cereal::PortableBinaryOutputArchive read
// back unchanged. Containers of arithmetic values, strings and std::array are read here;
// types with a serialize() or load() template are read through it; other containers are read
// element by element after `length()`.
#include <array>
#include <cereal/archives/portable_binary.hpp>
#include <cstdint>
#include <istream>
#include <streambuf>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "util/input_error.h"

namespace hulhe {

class BoundedInputArchive {
 public:
  // Reads `bytes` (which must outlive the archive), starting with cereal's endianness flag.
  // `what` names the input in messages, e.g. "checkpoint 'a.ckpt'".
  BoundedInputArchive(std::string_view bytes, std::string what)
      : buffer_(bytes), stream_(&buffer_), archive_(stream_), what_(std::move(what)) {}

  // Bytes not yet read.
  std::uint64_t remaining() const { return buffer_.remaining(); }
  // Bytes read so far, the endianness flag included.
  std::uint64_t position() const { return buffer_.position(); }

  // A length prefix, refused unless `length * min_element_bytes` fits in what remains.
  // min_element_bytes: the fewest bytes one element takes in the input (at least 1).
  std::uint64_t length(std::uint64_t min_element_bytes = 1) {
    std::uint64_t n = 0;
    archive_(cereal::make_size_tag(n));
    const std::uint64_t per = min_element_bytes == 0 ? 1 : min_element_bytes;
    if (n > remaining() / per)
      throw InputError(what_ + " is corrupt: a length of " + std::to_string(n) +
                       " elements does not fit in the " + std::to_string(remaining()) +
                       " bytes that remain");
    return n;
  }

  template <typename T>
  requires std::is_arithmetic_v<T>
  void operator()(T& value) { archive_(value); }

  void operator()(std::string& s) {
    s.resize(static_cast<std::size_t>(length(1)));
    archive_(cereal::binary_data(s.data(), s.size()));
  }

  template <typename T>
  requires std::is_arithmetic_v<T> &&(!std::is_same_v<T, bool>)void operator()(std::vector<T>& v) {
    v.resize(static_cast<std::size_t>(length(sizeof(T))));
    archive_(cereal::binary_data(v.data(), v.size() * sizeof(T)));
  }

  template <typename T, std::size_t N>
  void operator()(std::array<T, N>& a) {
    for (T& x : a) (*this)(x);
  }

  // Several values in order, as cereal's ar(a, b, c).
  template <typename A, typename B, typename... Rest>
  void operator()(A& a, B& b, Rest&... rest) {
    (*this)(a);
    (*this)(b);
    ((*this)(rest), ...);
  }

  // Types with a member `serialize(Archive&)` or `load(Archive&)` template, or a free
  // `serialize` found by ADL.
  template <typename T>
  requires requires(T& t, BoundedInputArchive& ar) { t.serialize(ar); }
  void operator()(T& value) { value.serialize(*this); }
  template <typename T>
  requires requires(T& t, BoundedInputArchive& ar) { t.load(ar); }
  void operator()(T& value) { value.load(*this); }
  template <typename T>
  requires(!std::is_arithmetic_v<T>) && requires(T& t, BoundedInputArchive& ar) {
    serialize(ar, t);
  }
  void operator()(T& value) { serialize(*this, value); }

 private:
  // A read-only stream buffer over the caller's bytes (no copy of a large body).
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(std::string_view bytes) {
      char* p = const_cast<char*>(bytes.data());
      setg(p, p, p + bytes.size());
    }
    std::uint64_t remaining() const { return static_cast<std::uint64_t>(egptr() - gptr()); }
    std::uint64_t position() const { return static_cast<std::uint64_t>(gptr() - eback()); }
  };

  Buffer buffer_;
  std::istream stream_;
  cereal::PortableBinaryInputArchive archive_;
  std::string what_;
};

}  // namespace hulhe
