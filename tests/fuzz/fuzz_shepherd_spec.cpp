// fuzz_shepherd_spec.cpp - fuzz target: the bytes `droverd --shepherd FD` reads as its spec.
// Nothing may crash or allocate without bound; what decodes must encode back to the same bytes.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "noded/shepherd_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, std::size_t size) {
    std::string_view data(reinterpret_cast<const char *>(bytes), size);
    drover::noded::ShepherdSpec spec;
    try {
        spec = drover::noded::decode_shepherd_spec(data);
    } catch (const std::runtime_error &) {
        return 0;
    }
    if (drover::noded::encode_shepherd_spec(spec) != data) std::abort();
    return 0;
}
