// Tests for contained opens. Each test builds a folder with a "secret" file outside it and proves
// that no name (a link, a hard link, "..", a swap racing the open) returns the secret's bytes, and
// that FIFOs, devices, folders and oversized files are refused without blocking or allocating.
// Every test runs twice: with openat2 and with the openat(O_NOFOLLOW) walk used where the kernel
// has no openat2.
#include "runtime/base/contained_file.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const char kSecret[] = "SECRET-BYTES";
const char kInside[] = "inside-bytes";

class ContainedFileTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    contained_file_testing::ForceComponentWalk(GetParam());
    std::string tmpl = ::testing::TempDir() + "/onnxgate_contained_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    dir_ = root_ + "/folder";
    outside_ = root_ + "/outside";
    fs::create_directories(dir_ + "/sub");
    fs::create_directories(outside_);
    Write(outside_ + "/secret.bin", kSecret);
    Write(outside_ + "/inside.bin", kSecret);  // what "<link to outside>/inside.bin" would read
    Write(dir_ + "/inside.bin", kInside);
    Write(dir_ + "/sub/inside.bin", kInside);
  }
  void TearDown() override {
    contained_file_testing::ForceComponentWalk(false);
    fs::remove_all(root_);
  }

  static void Write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  }

  StatusOr<std::string> Read(const std::string& name, uint64_t max = kNoFileSizeLimit) {
    ONNXGATE_ASSIGN_OR_RETURN(ContainedFile f, OpenContained(dir_, name, max));
    return f.ReadAll(1 << 20);
  }

  // The status of reading `name`, after checking that the secret was not read.
  Status Refused(const std::string& name) {
    StatusOr<std::string> r = Read(name);
    EXPECT_FALSE(r.ok()) << name << " was read: " << *r;
    return r.status();
  }

  std::string root_, dir_, outside_;
};

INSTANTIATE_TEST_SUITE_P(Resolution, ContainedFileTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Walk") : std::string("Openat2");
                         });

TEST_P(ContainedFileTest, ReadsFilesBeneathTheFolder) {
  for (const char* name : {"inside.bin", "sub/inside.bin", "./sub/inside.bin", "sub\\inside.bin"}) {
    StatusOr<std::string> r = Read(name);
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().ToString();
    EXPECT_EQ(*r, kInside) << name;
  }
  StatusOr<ContainedFile> f = OpenContained(dir_, "inside.bin", 100);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->size(), sizeof(kInside) - 1);
  EXPECT_EQ(*f->ReadRange(7, 5, 5), "bytes");
  EXPECT_EQ(*f->ReadRange(12, 0, 0), "");
  ContainedFile moved = std::move(f).value();
  EXPECT_EQ(*moved.ReadRange(0, 6, 6), "inside");
}

TEST_P(ContainedFileTest, RefusesNamesThatLeaveTheFolder) {
  struct Case {
    std::string name;
    const char* why;
  };
  for (const Case& c : std::vector<Case>{{outside_ + "/secret.bin", "is absolute"},
                                         {"\\x", "is absolute"},
                                         {"C:secret.bin", "drive letter"},
                                         {"../outside/secret.bin", "contains '..'"},
                                         {"sub/../../outside/secret.bin", "contains '..'"},
                                         {"..\\outside\\secret.bin", "contains '..'"},
                                         {"sub/..", "contains '..'"},
                                         {"sub//inside.bin", "empty component"},
                                         {"sub/", "empty component"},
                                         {".", "names no file"},
                                         {std::string("inside.bin\0x", 12), "NUL"},
                                         {"", "empty"}}) {
    Status st = Refused(c.name);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(st.message(), HasSubstr(c.why)) << c.name;
    EXPECT_THAT(st.message(), HasSubstr("in '" + dir_ + "'")) << c.name;
  }
}

TEST(SplitContainedPathTest, NormalizesAndQuotes) {
  EXPECT_EQ(*SplitContainedPath("./a\\b/c.bin"), (std::vector<std::string>{"a", "b", "c.bin"}));
  EXPECT_EQ(SplitContainedPath("a/../b").status().message(),
            "'a/../b' contains '..'; it must stay inside its folder");
  EXPECT_EQ(SplitContainedPath("").status().message(), "'' is empty");
}

TEST_P(ContainedFileTest, RefusesSymbolicLinks) {
  // A final file linking outside, one linking inside, a folder linking outside, one linking inside.
  ASSERT_EQ(symlink((outside_ + "/secret.bin").c_str(), (dir_ + "/link.bin").c_str()), 0);
  ASSERT_EQ(symlink("inside.bin", (dir_ + "/inner_link.bin").c_str()), 0);
  ASSERT_EQ(symlink(outside_.c_str(), (dir_ + "/outlink").c_str()), 0);
  ASSERT_EQ(symlink("sub", (dir_ + "/sublink").c_str()), 0);
  struct Case {
    const char* name;
    const char* link;
  };
  for (const Case& c :
       {Case{"link.bin", ""}, Case{"inner_link.bin", ""}, Case{"outlink/secret.bin", "'outlink' "},
        Case{"sublink/inside.bin", "'sublink' "}}) {
    Status st = Refused(c.name);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(st.message(), HasSubstr("'" + std::string(c.name) + "' in '" + dir_ + "': " +
                                        c.link + "is a symbolic link; a link may lead outside"));
  }
  // Folders: a link is refused as a subfolder too.
  ContainedDir dir = std::move(ContainedDir::Open(dir_)).value();
  EXPECT_THAT(dir.OpenDir("outlink").status().message(), HasSubstr("symbolic link"));
  EXPECT_THAT(dir.OpenDir("sublink").status().message(), HasSubstr("symbolic link"));
  EXPECT_TRUE(dir.OpenDir("sub").ok());
}

TEST_P(ContainedFileTest, RefusesHardLinks) {
  // A hard link is the outside file itself under a name inside the folder.
  ASSERT_EQ(link((outside_ + "/secret.bin").c_str(), (dir_ + "/hard.bin").c_str()), 0);
  Status st = Refused("hard.bin");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "'hard.bin' in '" + dir_ +
                              "': is a hard link (2 names); a file with other names may lie "
                              "outside that folder");
  // The caller's subject names the file in messages.
  auto named =
      OpenContained(dir_, "hard.bin", kNoFileSizeLimit, "external data 'hard.bin' of tensor 'W'");
  EXPECT_THAT(named.status().message(), HasSubstr("external data 'hard.bin' of tensor 'W' in '" +
                                                  dir_ + "': is a hard link"));
}

TEST_P(ContainedFileTest, RefusesFifosFoldersAndSocketsWithoutBlocking) {
  ASSERT_EQ(mkfifo((dir_ + "/fifo").c_str(), 0600), 0);
  auto start = std::chrono::steady_clock::now();
  Status fifo = Refused("fifo");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(fifo.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(fifo.message(), HasSubstr("is a FIFO, not a regular file"));

  EXPECT_THAT(Refused("sub").message(), HasSubstr("is a folder, not a regular file"));
  EXPECT_THAT(Refused("inside.bin/x").message(),
              HasSubstr("'inside.bin' is a regular file, not a folder"));

  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::string sock = dir_ + "/sock";
  ASSERT_LT(sock.size(), sizeof(addr.sun_path));
  std::strcpy(addr.sun_path, sock.c_str());
  ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  EXPECT_THAT(Refused("sock").message(), HasSubstr("is a socket, not a regular file"));
  close(s);
}

TEST_P(ContainedFileTest, MissingFilesAreNotFound) {
  Status st = Refused("nope.bin");
  EXPECT_EQ(st.code(), StatusCode::kNotFound);
  EXPECT_EQ(st.message(), "'nope.bin' in '" + dir_ + "': not found");
  EXPECT_THAT(Refused("nosub/x.bin").message(), HasSubstr("'nosub' not found"));
}

TEST_P(ContainedFileTest, SizeLimitsAreCheckedBeforeReading) {
  // Over the limit at open.
  StatusOr<ContainedFile> limited = OpenContained(dir_, "inside.bin", 4);
  EXPECT_EQ(limited.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(limited.status().message(), HasSubstr("is 12 bytes, more than the limit of 4"));

  // An 8 GiB sparse file: refused at open under a limit, and every read past the caller's limit
  // or the file's end is refused before anything is allocated.
  const std::string sparse = dir_ + "/sparse.bin";
  {
    int fd = open(sparse.c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, off_t{8} << 30), 0);
    close(fd);
  }
  EXPECT_THAT(OpenContained(dir_, "sparse.bin", kMaxProtobufFileBytes).status().message(),
              HasSubstr("is 8589934592 bytes, more than the limit of 2147483647"));
  StatusOr<ContainedFile> f = OpenContained(dir_, "sparse.bin", kNoFileSizeLimit);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->size(), uint64_t{8} << 30);
  EXPECT_THAT(f->ReadAll(1 << 20).status().message(),
              HasSubstr("reading 8589934592 bytes is more than the limit of 1048576"));
  EXPECT_EQ(f->ReadRange(uint64_t{8} << 30, 1, 1).status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(f->ReadRange(1, UINT64_MAX, UINT64_MAX).status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(*f->ReadRange(uint64_t{4} << 30, 4, 4), std::string(4, '\0'));
}

TEST_P(ContainedFileTest, ListsAndOpensSubfolders) {
  ASSERT_EQ(symlink("sub", (dir_ + "/sublink").c_str()), 0);
  ContainedDir dir = std::move(ContainedDir::Open(dir_)).value();
  StatusOr<std::vector<ContainedDir::Entry>> entries = dir.List();
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 3u);
  EXPECT_EQ((*entries)[0].name, "inside.bin");
  EXPECT_EQ((*entries)[0].type, ContainedDir::EntryType::kRegular);
  EXPECT_EQ((*entries)[1].name, "sub");
  EXPECT_EQ((*entries)[1].type, ContainedDir::EntryType::kDirectory);
  EXPECT_EQ((*entries)[2].name, "sublink");
  EXPECT_EQ((*entries)[2].type, ContainedDir::EntryType::kSymlink);

  StatusOr<ContainedDir> sub = dir.OpenDir("sub");
  ASSERT_TRUE(sub.ok()) << sub.status().ToString();
  EXPECT_EQ(sub->path(), dir_ + "/sub");
  EXPECT_EQ(*sub->OpenFile("inside.bin", 100)->ReadAll(100), kInside);
  EXPECT_THAT(dir.OpenDir("inside.bin").status().message(), HasSubstr("not a folder"));
  EXPECT_EQ(dir.OpenDir("none").status().code(), StatusCode::kNotFound);
}

TEST_P(ContainedFileTest, RootMayBeRefusedWhenItIsALink) {
  const std::string linked = root_ + "/linked_folder";
  ASSERT_EQ(symlink(dir_.c_str(), linked.c_str()), 0);
  EXPECT_TRUE(ContainedDir::Open(linked).ok());
  auto refused = ContainedDir::Open(linked, ContainedDir::RootLink::kRefuse);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("'" + linked + "': is a symbolic link"));
  EXPECT_TRUE(ContainedDir::Open(dir_, ContainedDir::RootLink::kRefuse).ok());
  EXPECT_EQ(ContainedDir::Open(root_ + "/none").status().code(), StatusCode::kNotFound);
  EXPECT_THAT(ContainedDir::Open(dir_ + "/inside.bin").status().message(),
              HasSubstr("not a folder"));
}

TEST_P(ContainedFileTest, WholePathsMustLieInsideTheFolder) {
  EXPECT_EQ(*OpenContainedPath(dir_, dir_ + "/sub/inside.bin", 100)->ReadAll(100), kInside);
  EXPECT_EQ(*OpenContainedPath(dir_ + "/", dir_ + "/./sub//inside.bin", 100)->ReadAll(100),
            kInside);
  for (const std::string& path : {outside_ + "/secret.bin", dir_ + "/../outside/secret.bin", dir_,
                                  root_ + "/folder2/x", std::string("folder/inside.bin")}) {
    StatusOr<ContainedFile> f = OpenContainedPath(dir_, path, 100);
    EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument) << path;
  }
  ASSERT_EQ(symlink((outside_ + "/secret.bin").c_str(), (dir_ + "/link.bin").c_str()), 0);
  EXPECT_THAT(OpenContainedPath(dir_, dir_ + "/link.bin", 100).status().message(),
              HasSubstr("symbolic link"));
}

TEST_P(ContainedFileTest, RegularFilesNamedByTheUser) {
  // A user's own path may go through links, but must name a regular file.
  ASSERT_EQ(symlink((dir_ + "/inside.bin").c_str(), (root_ + "/model_link").c_str()), 0);
  EXPECT_EQ(*ReadRegularFile(root_ + "/model_link", 100), kInside);
  ASSERT_EQ(mkfifo((root_ + "/fifo").c_str(), 0600), 0);
  EXPECT_EQ(ReadRegularFile(root_ + "/fifo", 100, "model file").status().message(),
            root_ + "/fifo: is a FIFO, not a model file");
  EXPECT_EQ(ReadRegularFile("/dev/zero", 100, "model file").status().message(),
            "/dev/zero: is a character device, not a model file");
  EXPECT_EQ(ReadRegularFile(dir_, 100, "model file").status().message(),
            dir_ + ": is a folder, not a model file");
  EXPECT_EQ(ReadRegularFile(root_ + "/none", 100, "model file").status().code(),
            StatusCode::kNotFound);
  EXPECT_THAT(ReadRegularFile(dir_ + "/inside.bin", 4, "model file").status().message(),
              HasSubstr("is 12 bytes, more than the limit of 4 for a model file"));
}

// A thread keeps swapping a folder on the way between a real folder and a link to the outside
// folder (whose same-named file holds the secret) while the main thread opens through it. Each
// open either reads the inside bytes or fails cleanly; the secret is never read.
TEST_P(ContainedFileTest, SwappingAFolderForALinkNeverLeaksTheSecret) {
  const std::string swap = dir_ + "/swap";
  const std::string real_hold = dir_ + "/real_hold";
  const std::string link_hold = dir_ + "/link_hold";
  fs::create_directories(swap);
  Write(swap + "/inside.bin", kInside);
  ASSERT_EQ(symlink(outside_.c_str(), link_hold.c_str()), 0);

  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    while (!stop.load()) {
      // swap: real -> gone -> link -> gone -> real.
      if (rename(swap.c_str(), real_hold.c_str()) != 0) break;
      if (rename(link_hold.c_str(), swap.c_str()) != 0) break;
      if (rename(swap.c_str(), link_hold.c_str()) != 0) break;
      if (rename(real_hold.c_str(), swap.c_str()) != 0) break;
    }
  });
  int read_inside = 0;
  for (int i = 0; i < 400; ++i) {
    StatusOr<std::string> r = Read("swap/inside.bin");
    if (r.ok()) {
      ASSERT_EQ(*r, kInside) << "attempt " << i;
      ++read_inside;
    } else {
      EXPECT_THAT(r.status().message(), ::testing::Not(HasSubstr(kSecret)));
    }
  }
  stop = true;
  swapper.join();
  SUCCEED() << read_inside << " of 400 opens read the inside file; the rest were refused";
}

// The same with the final file swapped between a regular file and a link to the secret.
TEST_P(ContainedFileTest, SwappingAFileForALinkNeverLeaksTheSecret) {
  const std::string name = dir_ + "/w.bin";
  const std::string real_hold = dir_ + "/w_real";
  const std::string link_hold = dir_ + "/w_link";
  Write(name, kInside);
  ASSERT_EQ(symlink((outside_ + "/secret.bin").c_str(), link_hold.c_str()), 0);
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    while (!stop.load()) {
      if (rename(name.c_str(), real_hold.c_str()) != 0) break;
      if (rename(link_hold.c_str(), name.c_str()) != 0) break;
      if (rename(name.c_str(), link_hold.c_str()) != 0) break;
      if (rename(real_hold.c_str(), name.c_str()) != 0) break;
    }
  });
  for (int i = 0; i < 400; ++i) {
    StatusOr<std::string> r = Read("w.bin");
    if (r.ok()) {
      ASSERT_EQ(*r, kInside) << "attempt " << i;
    }
  }
  stop = true;
  swapper.join();
}

}  // namespace
}  // namespace onnxgate
