// log_sink.hpp - the daemons' log file sink: spdlog's file sink, but one whose file can be
// opened again (log_reopen.hpp) while other threads log.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <spdlog/details/file_helper.h>
#include <spdlog/sinks/base_sink.h>

namespace drover::daemon {

class ReopenableFileSink : public spdlog::sinks::base_sink<std::mutex> {
  public:
    explicit ReopenableFileSink(std::string path);
    // Closes the file and opens its path again, appending (a new file after a rotation).
    void reopen();
    const std::string &path() const { return path_; }

  protected:
    void sink_it_(const spdlog::details::log_msg &msg) override;
    void flush_() override;

  private:
    std::string path_;
    spdlog::details::file_helper file_;
};

// The sink setup_logging made for a log file; null when the daemon logs to stderr.
std::shared_ptr<ReopenableFileSink> log_file_sink();

} // namespace drover::daemon
