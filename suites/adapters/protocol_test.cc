// Exec protocol version 3 on its own, without a process: the request's bytes, the answer's
// frame count, the frame header's checks (a receiver writes frames under its own directory, so a
// name must never reach outside it), and frames to a directory and back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include "adapters/exec/frames.h"
#include "adapters/exec/protocol.h"
#include "adapters/exec/scratch.h"

namespace qconform {
namespace {

TEST(InlineRequest, IsTheRunLineThenEachFrameHeaderAndItsBytes) {
  // The worked example of adapters/PROTOCOL.md, byte for byte.
  using namespace std::string_literals;
  const std::string bytes = InlineRunRequest(7, {{"model.onnx", "MODEL"}, {"a/b.pb", "\n\0x"s}});
  EXPECT_EQ(bytes, "run 7 2\nfile model.onnx 5\nMODELfile a/b.pb 3\n\n\0x"s);
  EXPECT_EQ(InlineRunRequest(8, {}), "run 8 0\n");
}

// The handshake PROTOCOL.md shows is the newest version qconform speaks (it once showed 2 beside
// the text for 3).
TEST(ProtocolDocument, TheHandshakeShowsTheNewestVersion) {
  std::ifstream in(QCONFORM_PROTOCOL_MD);
  ASSERT_TRUE(in) << QCONFORM_PROTOCOL_MD;
  std::string line, hello;
  while (std::getline(in, line)) {
    if (line.rfind("@qconform hello ", 0) == 0) {
      hello = line;
      break;
    }
  }
  EXPECT_EQ(hello.substr(0, 18), "@qconform hello " + std::to_string(kNewestProtocol) + " ")
      << hello;
}

TEST(InlineAnswer, OkCountsTheFramesThatFollow) {
  EXPECT_EQ(ParseAnswer(3, 7, "ok 7 2").frames, 2u);
  EXPECT_FALSE(ParseAnswer(3, 7, "ok 7 0").error);
  // Version 3 needs the count; version 2 refuses one.
  EXPECT_TRUE(ParseAnswer(3, 7, "ok 7").out_of_step);
  EXPECT_TRUE(ParseAnswer(3, 7, "ok 7 two").out_of_step);
  EXPECT_TRUE(ParseAnswer(3, 7, "ok 7 -1").out_of_step);
  EXPECT_TRUE(ParseAnswer(2, 7, "ok 7 2").out_of_step);
  const Answer error = ParseAnswer(3, 7, "error 7 rejected-at-run scale is zero");
  ASSERT_TRUE(error.error);
  EXPECT_EQ(error.error->message, "scale is zero");
  EXPECT_EQ(error.frames, 0u);
}

TEST(InlineAnswer, AStaleOkStillSaysHowManyFramesToSkip) {
  const Answer stale = ParseAnswer(3, 7, "ok 5 3");
  EXPECT_TRUE(stale.stale);
  EXPECT_EQ(stale.frames, 3u);
  EXPECT_TRUE(ParseAnswer(3, 7, "ok 5").out_of_step);  // its frames could not be skipped
  EXPECT_TRUE(ParseAnswer(3, 7, "error 5 rejected-at-run late").stale);
}

TEST(FrameHeader, NamesASafePathAndABelievableSize) {
  const auto ok = ParseFrameHeader("file test_data_set_0/input_1.pb 1234");
  ASSERT_TRUE(std::holds_alternative<FrameHeader>(ok));
  EXPECT_EQ(std::get<FrameHeader>(ok).name, "test_data_set_0/input_1.pb");
  EXPECT_EQ(std::get<FrameHeader>(ok).size, 1234u);
  EXPECT_TRUE(std::holds_alternative<FrameHeader>(ParseFrameHeader("file output_0.pb 0")));
  for (const char* bad :
       {"file ../output_0.pb 3", "file /etc/passwd 3", "file a//b 3", "file ./a 3", "file a/.. 3",
        "file a\\b 3", "file output_0.pb -3", "file output_0.pb 3x", "file output_0.pb",
        "file output_0.pb 3 4", "fil output_0.pb 3", "file output_0.pb 1073741825",
        "file output_0.pb 99999999999999999999"}) {
    const auto h = ParseFrameHeader(bad);
    EXPECT_TRUE(std::holds_alternative<std::string>(h)) << bad;
  }
  EXPECT_TRUE(std::holds_alternative<FrameHeader>(ParseFrameHeader("file output_0.pb 1073741824")));
  EXPECT_NE(std::get<std::string>(ParseFrameHeader("file ../x 3")).find("not a safe path"),
            std::string::npos);
}

TEST(Frames, ADirectoryGoesOutAndComesBackTheSame) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("qconform-frames-" + std::to_string(getpid()));
  const std::vector<Frame> sent = {{"model.onnx", std::string("\x08\x07\0", 3)},
                                   {"test_data_set_0/input_0.pb", "x"},
                                   {"test_data_set_0/input_1.pb", ""}};
  WriteFrames((root / "a").string(), sent);
  const std::vector<Frame> back = DirectoryFrames((root / "a").string());
  ASSERT_EQ(back.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(back[i].name, sent[i].name);
    EXPECT_EQ(back[i].bytes, sent[i].bytes);
  }
  // A name that climbs out is refused before anything is written.
  EXPECT_ANY_THROW(WriteFrames((root / "b").string(), {{"../escaped", "x"}}));
  EXPECT_FALSE(fs::exists(root / "escaped"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace qconform

// A serving backend inherits $TMPDIR from whoever started it; where that directory does not
// exist (a mount namespace of its own, another machine), its scratch goes elsewhere instead of
// failing to start.
TEST(ScratchRoot, SkipsATmpdirThatIsNotThere) {
  const char* had = std::getenv("TMPDIR");
  const std::string kept = had ? had : "";
  const std::string here = std::filesystem::temp_directory_path().string();
  setenv("TMPDIR", "/nonexistent/qconform-scratch-test", 1);
  const std::string root = qconform::ScratchRoot();
  const std::string made = qconform::MakeScratchDirectory("qconform-scratch-test-");
  setenv("TMPDIR", here.c_str(), 1);
  const std::string honoured = qconform::ScratchRoot();
  if (had)
    setenv("TMPDIR", kept.c_str(), 1);
  else
    unsetenv("TMPDIR");
  EXPECT_NE(root, "/nonexistent/qconform-scratch-test");
  EXPECT_TRUE(std::filesystem::is_directory(made)) << made;
  std::filesystem::remove_all(made);
  EXPECT_EQ(honoured, here) << "a TMPDIR that exists is the scratch root";
}
