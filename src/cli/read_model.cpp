// The native CLI's model file reader (see read_model.h).
#include "cli/read_model.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bahdanau.h"

// What a path names when it is not a regular file, in the words of web/lib/model-cache.js.
static const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Reads a model file whole: regular files of at most bl::kMaxModelBytes only. The checks use
// the opened descriptor (no race with a path that changes between a stat and the open), and
// O_NONBLOCK keeps the open itself from waiting for a FIFO's writer. False and *error (the
// whole message) otherwise.
bool read_model_file(const std::string& path, std::vector<uint8_t>* out, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot open model file " + path + ": " + std::strerror(errno);
    return false;
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    *error = "cannot open model file " + path + ": " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = "model file " + path + " is " + file_kind(st.st_mode) + ", not a regular file";
    return false;
  }
  if (uint64_t(st.st_size) > bl::kMaxModelBytes) {
    *error = "model file " + path + " is " + std::to_string(st.st_size) +
             " bytes, over the " + std::to_string(bl::kMaxModelBytes >> 20) + " MiB limit (" +
             std::to_string(bl::kMaxModelBytes) + " bytes)";
    return false;
  }
  // The size from fstat, plus one byte: a file that grew since is refused, not cut short.
  std::vector<uint8_t> bytes(size_t(st.st_size) + 1);
  size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = "cannot read model file " + path + ": " + std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    got += size_t(n);
  }
  if (got > size_t(st.st_size)) {
    *error = "model file " + path + " changed while it was read";
    return false;
  }
  bytes.resize(got);
  *out = std::move(bytes);
  return true;
}
