/*
 * What a game built on SDL 2 sees of the bridge's devices (the end-to-end
 * scenarios in scenarios/s25_sdl.py run it; run.sh compiles it against
 * Debian's libsdl2-dev). One JSON object a line on standard output.
 *
 *   sdl_probe devices
 *       every joystick SDL finds: name, path, GUID, ids, counts, whether it
 *       is a game controller, its controller name, mapping and the binding
 *       of every button and axis.
 *       For a game controller also its type, whether it has a gyro and an
 *       accelerometer, and how many touchpads.
 *   sdl_probe sensors
 *       opens the first game controller with a gyro and an accelerometer
 *       (waiting up to 10 s for SDL to find them), enables both, prints
 *       {"ready": true}, then pumps events until standard input closes and
 *       prints its path, GUID and type, how long after opening SDL had the
 *       sensors, every distinct sample SDL had ("readings": gyro x y z in
 *       rad/s, acceleration x y z in m/s^2) and the last, and every
 *       distinct state of its first touchpad's first finger ("fingers":
 *       down, x, y; x and y from 0 to 1).
 *   sdl_probe events [--video]
 *       opens every game controller and prints each SDL_CONTROLLER* event
 *       (and with --video, SDL's evdev keyboard and mouse events through the
 *       dummy video driver "evdev") until standard input closes. The first
 *       line is {"ready": ...} once the first controller is open (or at
 *       once with --video). Times: SDL's event timestamp (ms) and the same
 *       instant on CLOCK_MONOTONIC (ns).
 *
 * SDL_JOYSTICK_DISABLE_UDEV=1 in the environment makes SDL find devices
 * without udev, as inside Flatpak or Steam's runtime. SDL_DYNAMIC_API=FILE
 * runs it on another SDL 2 library (SDL's own way to replace the SDL a
 * program was built with); "sdl" in the output is the version running.
 */
#include <SDL.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static Uint64 start_ticks;
static long long start_monotonic_ns;

static long long monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static long long event_monotonic_ns(Uint32 timestamp)
{
    return start_monotonic_ns + ((long long)timestamp - (long long)start_ticks) * 1000000LL;
}

/* A JSON string; the names printed here need no escapes but quotes and backslashes. */
static void print_string(const char *text)
{
    putchar('"');
    for (const char *c = text ? text : ""; *c; ++c) {
        if (*c == '"' || *c == '\\') putchar('\\');
        if ((unsigned char)*c >= 0x20) putchar(*c);
    }
    putchar('"');
}

static void print_bind(SDL_GameControllerButtonBind bind)
{
    char text[32] = "";
    switch (bind.bindType) {
    case SDL_CONTROLLER_BINDTYPE_BUTTON: snprintf(text, sizeof text, "b%d", bind.value.button); break;
    case SDL_CONTROLLER_BINDTYPE_AXIS: snprintf(text, sizeof text, "a%d", bind.value.axis); break;
    case SDL_CONTROLLER_BINDTYPE_HAT: snprintf(text, sizeof text, "h%d.%d", bind.value.hat.hat, bind.value.hat.hat_mask); break;
    default: break;
    }
    print_string(text);
}

/* One `"name": bind` member of the bindings object, after a comma unless it is the first;
 * nothing for an element the mapping does not bind. */
static void print_binding(const char *name, SDL_GameControllerButtonBind bind, int *first)
{
    if (bind.bindType == SDL_CONTROLLER_BINDTYPE_NONE) return;
    printf(*first ? "" : ", ");
    *first = 0;
    print_string(name);
    printf(": ");
    print_bind(bind);
}

static void print_bindings(SDL_GameController *controller)
{
    int first = 1;
    printf(", \"bindings\": {");
    for (int button = 0; button < SDL_CONTROLLER_BUTTON_MAX; ++button) {
        print_binding(SDL_GameControllerGetStringForButton((SDL_GameControllerButton)button),
                      SDL_GameControllerGetBindForButton(controller, (SDL_GameControllerButton)button), &first);
    }
    for (int axis = 0; axis < SDL_CONTROLLER_AXIS_MAX; ++axis) {
        print_binding(SDL_GameControllerGetStringForAxis((SDL_GameControllerAxis)axis),
                      SDL_GameControllerGetBindForAxis(controller, (SDL_GameControllerAxis)axis), &first);
    }
    printf("}");
}

static int list_devices(void)
{
    if (SDL_Init(SDL_INIT_GAMECONTROLLER) != 0) {
        fprintf(stderr, "sdl_probe: SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    SDL_version version;
    SDL_GetVersion(&version);
    printf("{\"sdl\": \"%d.%d.%d\", \"joysticks\": %d}\n", version.major, version.minor, version.patch, SDL_NumJoysticks());
    for (int index = 0; index < SDL_NumJoysticks(); ++index) {
        char guid[33];
        SDL_JoystickGetGUIDString(SDL_JoystickGetDeviceGUID(index), guid, sizeof guid);
        printf("{\"index\": %d, \"name\": ", index);
        print_string(SDL_JoystickNameForIndex(index));
        printf(", \"path\": ");
        print_string(SDL_JoystickPathForIndex(index));
        printf(", \"guid\": \"%s\", \"vendor\": %d, \"product\": %d, \"version\": %d", guid,
               SDL_JoystickGetDeviceVendor(index), SDL_JoystickGetDeviceProduct(index),
               SDL_JoystickGetDeviceProductVersion(index));
        SDL_Joystick *joystick = SDL_JoystickOpen(index);
        if (joystick) {
            printf(", \"axes\": %d, \"buttons\": %d, \"hats\": %d", SDL_JoystickNumAxes(joystick),
                   SDL_JoystickNumButtons(joystick), SDL_JoystickNumHats(joystick));
        }
        int is_controller = SDL_IsGameController(index);
        printf(", \"gamecontroller\": %s", is_controller ? "true" : "false");
        if (is_controller) {
            SDL_GameController *controller = SDL_GameControllerOpen(index);
            printf(", \"controller_name\": ");
            print_string(controller ? SDL_GameControllerName(controller) : NULL);
            char *mapping = SDL_GameControllerMappingForDeviceIndex(index);
            printf(", \"mapping\": ");
            print_string(mapping);
            SDL_free(mapping);
            if (controller) {
                printf(", \"type\": %d, \"gyro\": %s, \"accel\": %s, \"touchpads\": %d",
                       (int)SDL_GameControllerGetType(controller),
                       SDL_GameControllerHasSensor(controller, SDL_SENSOR_GYRO) ? "true" : "false",
                       SDL_GameControllerHasSensor(controller, SDL_SENSOR_ACCEL) ? "true" : "false",
                       SDL_GameControllerGetNumTouchpads(controller));
                print_bindings(controller);
                SDL_GameControllerClose(controller);
            }
        }
        if (joystick) SDL_JoystickClose(joystick);
        printf("}\n");
    }
    SDL_Quit();
    return 0;
}

static void print_event_head(const char *kind, Uint32 timestamp)
{
    printf("{\"event\": \"%s\", \"t_ms\": %u, \"mono_ns\": %lld", kind, timestamp, event_monotonic_ns(timestamp));
}

/* Waits up to 4 ms for standard input; true once it is closed. (SDL's own
 * SDL_WaitEventTimeout polls every millisecond, too busy for the emulated VM.) */
/* True once standard input is at its end; waits up to `milliseconds` for it. */
static int stdin_closed_within(int milliseconds)
{
    struct pollfd input = { .fd = STDIN_FILENO, .events = POLLIN };
    if (poll(&input, 1, milliseconds) <= 0) return 0;
    char buffer[64];
    return read(STDIN_FILENO, buffer, sizeof buffer) <= 0;
}

static int stdin_closed(void)
{
    return stdin_closed_within(4);
}

static int watch_events(int video)
{
    Uint32 systems = SDL_INIT_GAMECONTROLLER | (video ? SDL_INIT_VIDEO : 0);
    if (video) SDL_SetHint(SDL_HINT_VIDEODRIVER, "evdev");
    if (SDL_Init(systems) != 0) {
        fprintf(stderr, "sdl_probe: SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    start_ticks = SDL_GetTicks64();
    start_monotonic_ns = monotonic_ns();
    int ready = 0;
    if (video) {
        printf("{\"ready\": \"video\", \"video_driver\": ");
        print_string(SDL_GetCurrentVideoDriver());
        printf("}\n");
        fflush(stdout);
        ready = 1;
    }
    SDL_Event event;
    while (!stdin_closed()) {
        SDL_PumpEvents();
        while (SDL_PollEvent(&event)) {
            switch (event.type) {
            case SDL_CONTROLLERDEVICEADDED: {
                SDL_GameController *controller = SDL_GameControllerOpen(event.cdevice.which);
                print_event_head("added", event.cdevice.timestamp);
                printf(", \"name\": ");
                print_string(controller ? SDL_GameControllerName(controller) : SDL_GetError());
                printf("}\n");
                if (controller && !ready) {
                    printf("{\"ready\": \"controller\"}\n");
                    ready = 1;
                }
                break;
            }
            case SDL_CONTROLLERDEVICEREMOVED:
                print_event_head("removed", event.cdevice.timestamp);
                printf("}\n");
                break;
            case SDL_CONTROLLERBUTTONDOWN:
            case SDL_CONTROLLERBUTTONUP:
                print_event_head("button", event.cbutton.timestamp);
                printf(", \"name\": ");
                print_string(SDL_GameControllerGetStringForButton((SDL_GameControllerButton)event.cbutton.button));
                printf(", \"down\": %d}\n", event.cbutton.state == SDL_PRESSED);
                break;
            case SDL_CONTROLLERAXISMOTION:
                print_event_head("axis", event.caxis.timestamp);
                printf(", \"name\": ");
                print_string(SDL_GameControllerGetStringForAxis((SDL_GameControllerAxis)event.caxis.axis));
                printf(", \"value\": %d}\n", event.caxis.value);
                break;
            case SDL_KEYDOWN:
            case SDL_KEYUP:
                if (event.key.repeat) break;
                print_event_head("key", event.key.timestamp);
                printf(", \"name\": ");
                print_string(SDL_GetScancodeName(event.key.keysym.scancode));
                printf(", \"down\": %d}\n", event.key.state == SDL_PRESSED);
                break;
            case SDL_MOUSEBUTTONDOWN:
            case SDL_MOUSEBUTTONUP:
                print_event_head("mouse_button", event.button.timestamp);
                printf(", \"button\": %d, \"down\": %d}\n", event.button.button, event.button.state == SDL_PRESSED);
                break;
            default:
                break;
            }
        }
        fflush(stdout);
    }
    SDL_Quit();
    return 0;
}

/* Each distinct (gyro, accelerometer) sample SDL gave, in order, at most this many. */
#define MAX_READINGS 512
/* Each distinct (down, x, y) of the first touchpad's first finger, in order, at most this many. */
#define MAX_FINGERS 64

/* Opens every game controller and waits, pumping events, up to SENSOR_WAIT_MS for one to have
 * a gyro and an accelerometer, as a game that keeps its controllers open sees them: SDL's PS5
 * driver adds them once the pad sends its full reports (at once if one came within its first
 * 16 ms read). Closes the others; gives the one's device index and how many milliseconds after
 * opening it had them (0: at once). */
#define SENSOR_WAIT_MS 10000
#define MAX_CONTROLLERS 8

static int has_motion(SDL_GameController *controller)
{
    return SDL_GameControllerHasSensor(controller, SDL_SENSOR_GYRO)
        && SDL_GameControllerHasSensor(controller, SDL_SENSOR_ACCEL);
}

static SDL_GameController *open_controller_with_sensors(int *index, Uint32 *after_ms)
{
    SDL_GameController *controllers[MAX_CONTROLLERS] = {NULL};
    int indices[MAX_CONTROLLERS];
    int count = 0;
    for (int i = 0; i < SDL_NumJoysticks() && count < MAX_CONTROLLERS; ++i) {
        if (!SDL_IsGameController(i)) continue;
        controllers[count] = SDL_GameControllerOpen(i);
        if (controllers[count]) indices[count++] = i;
    }
    Uint32 start = SDL_GetTicks();
    SDL_GameController *found = NULL;
    for (;;) {
        for (int i = 0; i < count && !found; ++i) {
            if (has_motion(controllers[i])) {
                found = controllers[i];
                *index = indices[i];
            }
        }
        if (found || count == 0 || SDL_GetTicks() - start > SENSOR_WAIT_MS) break;
        SDL_Delay(10);
        SDL_Event event;
        while (SDL_PollEvent(&event)) {}
    }
    *after_ms = found ? SDL_GetTicks() - start : 0;
    for (int i = 0; i < count; ++i) {
        if (controllers[i] != found) SDL_GameControllerClose(controllers[i]);
    }
    return found;
}

static int read_sensors(void)
{
    if (SDL_Init(SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR) != 0) {
        fprintf(stderr, "sdl_probe: SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    int index = -1;
    Uint32 sensors_after_ms = 0;
    SDL_GameController *controller = open_controller_with_sensors(&index, &sensors_after_ms);
    if (!controller) {
        printf("{\"ready\": true}\n{\"sensors\": false}\n");
        SDL_Quit();
        return 0;
    }
    SDL_GameControllerSetSensorEnabled(controller, SDL_SENSOR_GYRO, SDL_TRUE);
    SDL_GameControllerSetSensorEnabled(controller, SDL_SENSOR_ACCEL, SDL_TRUE);
    printf("{\"ready\": true}\n");
    fflush(stdout);
    static float readings[MAX_READINGS][6];
    static float fingers[MAX_FINGERS][3];
    int count = 0, finger_count = 0;
    float sample[6] = {0, 0, 0, 0, 0, 0};
    /* 50 samples a second: the poses last 300 ms, and the VM's other readers need the CPU. */
    while (!stdin_closed_within(20)) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {}
        SDL_GameControllerGetSensorData(controller, SDL_SENSOR_GYRO, sample, 3);
        SDL_GameControllerGetSensorData(controller, SDL_SENSOR_ACCEL, sample + 3, 3);
        if (count < MAX_READINGS && (count == 0 || memcmp(readings[count - 1], sample, sizeof sample) != 0)) {
            memcpy(readings[count++], sample, sizeof sample);
        }
        Uint8 down = 0;
        float finger[3] = {0, 0, 0}, pressure = 0;
        if (SDL_GameControllerGetNumTouchpads(controller) > 0
            && SDL_GameControllerGetTouchpadFinger(controller, 0, 0, &down, &finger[1], &finger[2], &pressure) == 0) {
            finger[0] = down;
            if (finger_count < MAX_FINGERS
                && (finger_count == 0 || memcmp(fingers[finger_count - 1], finger, sizeof finger) != 0)) {
                memcpy(fingers[finger_count++], finger, sizeof finger);
            }
        }
    }
    char guid[33];
    SDL_JoystickGetGUIDString(SDL_JoystickGetDeviceGUID(index), guid, sizeof guid);
    SDL_version version;
    SDL_GetVersion(&version);
    printf("{\"sensors\": true, \"sdl\": \"%d.%d.%d\", \"name\": ", version.major, version.minor, version.patch);
    print_string(SDL_GameControllerName(controller));
    printf(", \"path\": ");
    print_string(SDL_JoystickPathForIndex(index));
    printf(", \"guid\": \"%s\", \"type\": %d, \"touchpads\": %d, \"sensors_after_ms\": %u", guid,
           (int)SDL_GameControllerGetType(controller), SDL_GameControllerGetNumTouchpads(controller), sensors_after_ms);
    printf(", \"gyro\": [%f, %f, %f], \"accel\": [%f, %f, %f], \"readings\": [",
           sample[0], sample[1], sample[2], sample[3], sample[4], sample[5]);
    for (int reading = 0; reading < count; ++reading) {
        const float *r = readings[reading];
        printf("%s[%f, %f, %f, %f, %f, %f]", reading ? ", " : "", r[0], r[1], r[2], r[3], r[4], r[5]);
    }
    printf("], \"fingers\": [");
    for (int state = 0; state < finger_count; ++state) {
        printf("%s[%d, %f, %f]", state ? ", " : "", (int)fingers[state][0], fingers[state][1], fingers[state][2]);
    }
    printf("]}\n");
    SDL_GameControllerClose(controller);
    SDL_Quit();
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 2 && strcmp(argv[1], "devices") == 0) return list_devices();
    if (argc >= 2 && strcmp(argv[1], "events") == 0) return watch_events(argc >= 3 && strcmp(argv[2], "--video") == 0);
    if (argc >= 2 && strcmp(argv[1], "sensors") == 0) return read_sensors();
    fprintf(stderr, "usage: sdl_probe devices | sensors MILLISECONDS | events [--video]\n");
    return 64;
}
