// gres_nvml.cpp - AutoDetect=nvml: libnvidia-ml loaded with dlopen, asked for each GPU's minor
// number, name, UUID and CPU affinity.
#include "common/gres_nvml.hpp"

#include <dlfcn.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>

namespace drover {

namespace {

// NVML's C interface as its documentation declares it, for the few entry points read here:
// a device handle is an opaque pointer, every call returns an nvmlReturn_t (0 = success).
struct NvmlDeviceOpaque;
using NvmlDevice = NvmlDeviceOpaque *;
using NvmlReturn = int;
constexpr NvmlReturn kNvmlSuccess = 0;
// NVML_DEVICE_NAME_V2_BUFFER_SIZE and NVML_DEVICE_UUID_V2_BUFFER_SIZE: room for any answer.
constexpr unsigned kNameSize = 96;
constexpr unsigned kUuidSize = 96;
// The affinity mask read covers CPUs 0 to 32767.
constexpr unsigned kMaskWords = 32768 / (sizeof(unsigned long) * CHAR_BIT);

struct NvmlApi {
    NvmlReturn (*init)();                                          // nvmlInit_v2
    NvmlReturn (*shutdown)();                                      // nvmlShutdown
    NvmlReturn (*count)(unsigned *);                               // nvmlDeviceGetCount_v2
    NvmlReturn (*handle)(unsigned, NvmlDevice *);                  // ...GetHandleByIndex_v2
    NvmlReturn (*minor)(NvmlDevice, unsigned *);                   // nvmlDeviceGetMinorNumber
    NvmlReturn (*name)(NvmlDevice, char *, unsigned);              // nvmlDeviceGetName
    NvmlReturn (*uuid)(NvmlDevice, char *, unsigned);              // nvmlDeviceGetUUID
    NvmlReturn (*affinity)(NvmlDevice, unsigned, unsigned long *); // nvmlDeviceGetCpuAffinity
    const char *(*error_string)(NvmlReturn);                       // nvmlErrorString

    std::string why(NvmlReturn rc) const {
        const char *s = error_string ? error_string(rc) : nullptr;
        return s ? std::string(s) : "NVML error " + std::to_string(rc);
    }
};

struct DlClose {
    void operator()(void *lib) const { ::dlclose(lib); }
};
using Library = std::unique_ptr<void, DlClose>;

// Sets out to symbol of lib; false (and missing = symbol) if lib has no such symbol.
template <class Fn>
bool bind(void *lib, const char *symbol, Fn &out, std::string &missing) {
    void *p = ::dlsym(lib, symbol);
    if (p == nullptr) {
        missing = symbol;
        return false;
    }
    out = reinterpret_cast<Fn>(p);
    return true;
}

// Every entry point of api from lib; false (and missing names the first absent) otherwise.
bool bind_api(void *lib, NvmlApi &api, std::string &missing) {
    return bind(lib, "nvmlInit_v2", api.init, missing) &&
           bind(lib, "nvmlShutdown", api.shutdown, missing) &&
           bind(lib, "nvmlDeviceGetCount_v2", api.count, missing) &&
           bind(lib, "nvmlDeviceGetHandleByIndex_v2", api.handle, missing) &&
           bind(lib, "nvmlDeviceGetMinorNumber", api.minor, missing) &&
           bind(lib, "nvmlDeviceGetName", api.name, missing) &&
           bind(lib, "nvmlDeviceGetUUID", api.uuid, missing) &&
           bind(lib, "nvmlDeviceGetCpuAffinity", api.affinity, missing) &&
           bind(lib, "nvmlErrorString", api.error_string, missing);
}

// The CPU ids whose bits are set in mask (word i holds CPUs i*BITS to i*BITS+BITS-1).
std::vector<uint32_t> mask_cpus(const unsigned long *mask, unsigned words) {
    constexpr unsigned kBits = sizeof(unsigned long) * CHAR_BIT;
    std::vector<uint32_t> cpus;
    for (unsigned w = 0; w < words; ++w)
        for (unsigned b = 0; b < kBits; ++b)
            if ((mask[w] >> b) & 1ul) cpus.push_back(w * kBits + b);
    return cpus;
}

// GPU index as a GresDevice; nullopt (with a warning) when its handle or minor number cannot be
// read, since then its device file is unknown.
std::optional<GresDevice> read_gpu(const NvmlApi &api, unsigned index,
                                   std::vector<std::string> &warnings) {
    std::string who = "NVML GPU " + std::to_string(index) + ": ";
    NvmlDevice dev = nullptr;
    unsigned minor = 0;
    if (NvmlReturn rc = api.handle(index, &dev); rc != kNvmlSuccess) {
        warnings.push_back(who + "no handle: " + api.why(rc) + "; skipped");
        return std::nullopt;
    }
    if (NvmlReturn rc = api.minor(dev, &minor); rc != kNvmlSuccess) {
        warnings.push_back(who + "no minor number: " + api.why(rc) + "; skipped");
        return std::nullopt;
    }
    GresDevice g;
    g.name = "gpu";
    g.count = 1;
    g.files.push_back("/dev/nvidia" + std::to_string(minor));
    char text[kNameSize > kUuidSize ? kNameSize : kUuidSize] = {};
    if (NvmlReturn rc = api.name(dev, text, kNameSize); rc == kNvmlSuccess)
        g.type = nvml_gpu_type(std::string_view(text, ::strnlen(text, kNameSize)));
    else
        warnings.push_back(who + "no name: " + api.why(rc) + "; reported untyped");
    text[0] = '\0';
    if (api.uuid(dev, text, kUuidSize) == kNvmlSuccess)
        g.unique_id.assign(text, ::strnlen(text, kUuidSize));
    std::vector<unsigned long> mask(kMaskWords, 0ul);
    if (NvmlReturn rc = api.affinity(dev, kMaskWords, mask.data()); rc == kNvmlSuccess)
        g.cores = format_index_list(mask_cpus(mask.data(), kMaskWords));
    else
        warnings.push_back(who + "no CPU affinity: " + api.why(rc) + "; usable from any core");
    return g;
}

} // namespace

std::string nvml_gpu_type(std::string_view name) {
    std::string type;
    type.reserve(name.size());
    for (char c : name) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        type.push_back(is_gres_name_char(c) ? c : '_');
    }
    return type;
}

NvmlDetection gres_detect_nvml(const std::string &library) {
    NvmlDetection out;
    ::dlerror();
    Library lib(::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL));
    if (!lib) {
        const char *e = ::dlerror();
        out.error = "cannot load NVML: " + (e ? std::string(e) : library);
        return out;
    }
    NvmlApi api{};
    std::string missing;
    if (!bind_api(lib.get(), api, missing)) {
        out.error = "cannot load NVML: " + library + " has no " + missing;
        return out;
    }
    if (NvmlReturn rc = api.init(); rc != kNvmlSuccess) {
        out.error = "NVML did not start: " + api.why(rc);
        return out;
    }
    unsigned count = 0;
    if (NvmlReturn rc = api.count(&count); rc != kNvmlSuccess) {
        out.error = "NVML could not count the GPUs: " + api.why(rc);
    } else {
        out.gpus.emplace();
        for (unsigned i = 0; i < count; ++i)
            if (auto g = read_gpu(api, i, out.warnings)) out.gpus->push_back(std::move(*g));
    }
    api.shutdown();
    return out;
}

} // namespace drover
