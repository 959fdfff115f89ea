// heap_trim.hpp - gives freed heap pages back to the system, at start and then periodically.
//
// glibc returns memory to the system only from the top of its heaps. After a burst (parsing a
// large cluster's config, thousands of node registrations, a ping round to every node) the pages
// freed below live data stay resident though unused, and a controller of 16,384 nodes kept about
// as much garbage as live node records. malloc_trim(0) releases every whole free page.
#pragma once

#include <chrono>
#include <memory>

namespace boost::asio {
class io_context;
}

namespace drover::daemon {

// Releases the heap's free pages now (malloc_trim); cheap when there is nothing to release.
void trim_heap();

// Calls trim_heap() every period on io's thread for as long as it lives.
class HeapTrimmer {
  public:
    HeapTrimmer(boost::asio::io_context &io, std::chrono::milliseconds period);
    ~HeapTrimmer();
    HeapTrimmer(const HeapTrimmer &) = delete;
    HeapTrimmer &operator=(const HeapTrimmer &) = delete;

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

} // namespace drover::daemon
