// text_pool.hpp - one Shared<std::string> per distinct text, so that the nodes that report the
// same OS or version, or are given the same reason, hold one block between them.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "common/shared_value.hpp"

namespace drover {

class TextPool {
  public:
    // The pool's block for text (empty text: the empty Shared, no block).
    Shared<std::string> get(std::string_view text);
    std::size_t size() const { return pool_.size(); }

  private:
    // Keys view the text of the block they map to. Texts nobody else holds are dropped whenever
    // the pool has doubled since the last sweep, so it stays as large as the texts in use.
    std::unordered_map<std::string_view, Shared<std::string>> pool_;
    std::size_t sweep_at_ = 64;
};

} // namespace drover
