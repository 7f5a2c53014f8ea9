#pragma once
// The page of `hulhe serve` (the files of web/), compiled into the binary by
// server/embed_web_assets.cmake: the server needs no file beside it and fetches nothing.
#include <string_view>
#include <vector>

namespace hulhe::server {

struct WebAsset {
  std::string_view path;  // "/index.html", "/table.js", ...
  std::string_view content_type;
  std::string_view content;
};

// Every embedded file, by path.
const std::vector<WebAsset>& web_assets();

}  // namespace hulhe::server
