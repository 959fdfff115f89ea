// text_pool.cpp - shared texts by content.
#include "common/text_pool.hpp"

namespace drover {

Shared<std::string> TextPool::get(std::string_view text) {
    if (text.empty()) return {};
    if (auto it = pool_.find(text); it != pool_.end()) return it->second;
    if (pool_.size() >= sweep_at_) {
        std::erase_if(pool_, [](const auto &kv) { return kv.second.unique(); });
        sweep_at_ = std::max<std::size_t>(64, pool_.size() * 2);
    }
    Shared<std::string> s{std::string(text)};
    pool_.emplace(std::string_view(s.get()), s);
    return s;
}

} // namespace drover
