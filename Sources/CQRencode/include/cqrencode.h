#ifndef CQRENCODE_H
#define CQRENCODE_H

/* libqrencode for Swift, loaded when `ui` draws its address as a QR code rather than linked,
   so the daemon and the other commands never carry it. The header gives the types (Debian's
   libqrencode-dev); each call goes through a pointer dlsym() found. */

#include <qrencode.h>

/* Loads libqrencode (once). 0 when it is loaded; -1 when it cannot be, and then
   cqrencode_load_error() says why. */
int cqrencode_load(void);

/* Why the last cqrencode_load() failed, e.g. that libqrencode.so.4 is not installed. */
const char *cqrencode_load_error(void);

/* QRcode_encodeString and QRcode_free, once loaded. */
QRcode *cqrencode_encode_string(const char *string, int version, QRecLevel level, QRencodeMode hint, int casesensitive);
void cqrencode_free(QRcode *code);

#endif
