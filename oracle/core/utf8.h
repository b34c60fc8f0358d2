// Text from outside (a backend's error message, a runtime's stray output, a file name) may be
// any bytes; reports are UTF-8 (JSON, XML and HTML require it). Invalid sequences become U+FFFD.
#pragma once

#include <string>
#include <string_view>

namespace qconform {

// s with every byte that does not start or continue a well-formed UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF included) replaced by U+FFFD.
std::string ValidUtf8(std::string_view s);

}  // namespace qconform
