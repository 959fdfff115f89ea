// file_bcast.hpp - sbcast's blocks as a node writes them. A block is written only under a
// broadcast credential that names this node, sent by the job's user or an administrator, for a
// job that has not ended here, and by a child running as the job's user: the file is the user's,
// and nothing lands where the user could not write. The first block creates the file (refusing
// one that exists unless forced), the last sets its mode and, asked to preserve them, its times.
// Only regular files are written, and a writer that hangs (a stuck file system) is killed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/status.hpp"
#include "noded/privileges.hpp"
#include "proto/message_generated.h"

namespace boost::asio {
class io_context;
}
namespace drover::net {
class Authenticator;
} // namespace drover::net

namespace drover::noded {

class Reaper;

class FileBcast {
  public:
    // done(success) once the block is written; done(why) when refused or failed.
    using Done = std::function<void(Status)>;

    // job_ended(job) says whether the job has ended on this node; a block's writer is killed
    // before the node's answer is due: within the request's timeout_ms (sbcast -t), or
    // timeout_ms when it names none.
    FileBcast(boost::asio::io_context &io, const net::Authenticator &auth,
              std::function<bool(uint32_t)> is_admin, std::string node, Reaper &reaper,
              std::function<bool(uint32_t)> job_ended, int timeout_ms);
    ~FileBcast();

    void serve(const proto::FileBcastRequest &req, uint32_t requester, Done done);

  private:
    // Whether the request may write here: success, with the user it writes as and the file it
    // writes; else why not (DROVER_EPERM: the credential or the job refuses it; DROVER_EINVAL:
    // the request names no file it could write).
    Status check(const proto::FileBcastRequest &req, uint32_t requester, RunAs *who,
                 std::string *path);

    boost::asio::io_context &io_;
    const net::Authenticator &auth_;
    std::function<bool(uint32_t)> is_admin_;
    std::string node_;
    Reaper &reaper_;
    std::function<bool(uint32_t)> job_ended_;
    int timeout_ms_;
    GroupCache groups_;
};

} // namespace drover::noded
