#include "cqrencode.h"

#include <dlfcn.h>
#include <stdio.h>

/* The soname Debian's libqrencode4 installs. */
#define CQRENCODE_LIBRARY "libqrencode.so.4"

static struct {
    __typeof__(QRcode_encodeString) *encode_string;
    __typeof__(QRcode_free) *free_code;
} qr;

static int loaded;
static char load_error[512];

int cqrencode_load(void) {
    if (loaded) return 0;
    void *library = dlopen(CQRENCODE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why != NULL ? why : "cannot load " CQRENCODE_LIBRARY);
        return -1;
    }
    qr.encode_string = (__typeof__(QRcode_encodeString) *)dlsym(library, "QRcode_encodeString");
    qr.free_code = (__typeof__(QRcode_free) *)dlsym(library, "QRcode_free");
    if (qr.encode_string == NULL || qr.free_code == NULL) {
        snprintf(load_error, sizeof load_error, "%s lacks QRcode_encodeString or QRcode_free", CQRENCODE_LIBRARY);
        dlclose(library);
        return -1;
    }
    loaded = 1; /* kept loaded for the process's life */
    return 0;
}

const char *cqrencode_load_error(void) {
    return load_error;
}

QRcode *cqrencode_encode_string(const char *string, int version, QRecLevel level, QRencodeMode hint, int casesensitive) {
    return qr.encode_string(string, version, level, hint, casesensitive);
}

void cqrencode_free(QRcode *code) {
    qr.free_code(code);
}
