#ifndef DAYDREAM_CTOML_H
#define DAYDREAM_CTOML_H
/* A C ABI over toml++: filled in by the config work. */
#ifdef __cplusplus
extern "C" {
#endif
/* The toml++ version this shim was built against, as major*10000+minor*100+patch. */
int ctoml_version(void);
#ifdef __cplusplus
}
#endif
#endif
