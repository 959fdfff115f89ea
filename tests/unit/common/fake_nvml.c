/* fake_nvml.c - a stand-in for libnvidia-ml for gres_nvml_test: the NVML entry points that
 * AutoDetect=nvml calls, with NVML's C signatures, answering for two A100s with minor numbers 0
 * and 3. FAKE_NVML_FAIL in the environment picks a failure: "init" (nvmlInit_v2 answers
 * NVML_ERROR_DRIVER_NOT_LOADED), "affinity" (every nvmlDeviceGetCpuAffinity answers
 * NVML_ERROR_NOT_SUPPORTED) or "minor" (the second GPU has no minor number). */
#include <stdlib.h>
#include <string.h>

typedef struct fake_gpu *nvmlDevice_t;
typedef int nvmlReturn_t;

enum {
    SUCCESS = 0,
    UNINITIALIZED = 1,
    INVALID_ARGUMENT = 2,
    NOT_SUPPORTED = 3,
    INSUFFICIENT_SIZE = 7,
    DRIVER_NOT_LOADED = 9
};

struct fake_gpu {
    unsigned minor;
    const char *name;
    const char *uuid;
    unsigned long mask[2]; /* CPUs 0-63 and 64-127 */
};

static struct fake_gpu gpus[2] = {
    {0,
     "NVIDIA A100-SXM4-40GB",
     "GPU-11111111-2222-3333-4444-555555555555",
     {0x0000ffff0000fffful, 0}},
    {3,
     "NVIDIA A100-SXM4-40GB",
     "GPU-66666666-7777-8888-9999-000000000000",
     {0xffff0000ffff0000ul, 0x1ul}},
};
static int started;

static int failing(const char *what) {
    const char *f = getenv("FAKE_NVML_FAIL");
    return f != NULL && strcmp(f, what) == 0;
}

static nvmlReturn_t copy_text(const char *text, char *out, unsigned size) {
    if (strlen(text) + 1 > size) return INSUFFICIENT_SIZE;
    memcpy(out, text, strlen(text) + 1);
    return SUCCESS;
}

nvmlReturn_t nvmlInit_v2(void) {
    if (failing("init")) return DRIVER_NOT_LOADED;
    started = 1;
    return SUCCESS;
}

nvmlReturn_t nvmlShutdown(void) {
    if (!started) return UNINITIALIZED;
    started = 0;
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *count) {
    if (!started) return UNINITIALIZED;
    *count = 2;
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t *device) {
    if (!started) return UNINITIALIZED;
    if (index >= 2) return INVALID_ARGUMENT;
    *device = &gpus[index];
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned *minor) {
    if (failing("minor") && device == &gpus[1]) return NOT_SUPPORTED;
    *minor = device->minor;
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned size) {
    return copy_text(device->name, name, size);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned size) {
    return copy_text(device->uuid, uuid, size);
}

nvmlReturn_t nvmlDeviceGetCpuAffinity(nvmlDevice_t device, unsigned size, unsigned long *set) {
    unsigned i;
    if (failing("affinity")) return NOT_SUPPORTED;
    for (i = 0; i < size; ++i) set[i] = i < 2 ? device->mask[i] : 0;
    return SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t rc) {
    static const char *const texts[] = {
        [SUCCESS] = "Success",
        [UNINITIALIZED] = "Uninitialized",
        [INVALID_ARGUMENT] = "Invalid Argument",
        [NOT_SUPPORTED] = "Not Supported",
        [INSUFFICIENT_SIZE] = "Insufficient Size",
        [DRIVER_NOT_LOADED] = "Driver Not Loaded",
    };
    if (rc < 0 || rc >= (int)(sizeof texts / sizeof texts[0]) || texts[rc] == NULL)
        return "Unknown Error";
    return texts[rc];
}
