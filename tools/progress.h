// Progress of a long run on stderr: a bar redrawn in place on a terminal (at most every 50 ms,
// and at the end), a line every tenth of the way otherwise (so CI logs show it without a flood).
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace qconform::tools {

class Progress {
 public:
  Progress(size_t total, std::string label)
      : total_(total),
        label_(std::move(label)),
        tty_(isatty(STDERR_FILENO) != 0),
        start_(std::chrono::steady_clock::now()) {}

  void Update(size_t done, size_t failing) {
    const auto now = std::chrono::steady_clock::now();
    if (tty_ && done != total_ && now - drawn_ < std::chrono::milliseconds(50)) return;
    drawn_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
    if (tty_) {
      constexpr int kWidth = 30;
      const int filled = total_ ? static_cast<int>(kWidth * done / total_) : kWidth;
      std::fprintf(stderr, "\r%s [%s%s] %zu/%zu  %zu failing  %.0f cases/s ", label_.c_str(),
                   std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(),
                   done, total_, failing, rate);
      if (done == total_) std::fprintf(stderr, "\n");
    } else if (total_ && (done * 10 / total_ != last_tenth_ || done == total_)) {
      last_tenth_ = done * 10 / total_;
      std::fprintf(stderr, "%s: %zu/%zu cases, %zu failing, %.0f cases/s\n", label_.c_str(), done,
                   total_, failing, rate);
    }
    std::fflush(stderr);
  }

 private:
  size_t total_;
  std::string label_;
  bool tty_;
  std::chrono::steady_clock::time_point start_, drawn_{};
  size_t last_tenth_ = 0;
};

}  // namespace qconform::tools
