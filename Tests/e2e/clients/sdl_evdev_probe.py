"""SDL 2.30 or later (pysdl2-dll in the e2e venv) reading the DualSense through the kernel's
evdev nodes (SDL_JOYSTICK_HIDAPI=0), as s29_dualsense.py compares with SDL 2.26 over hidraw.
The same protocol as `sdl_probe sensors`: the first game controller with a gyro and an
accelerometer, its sensors enabled, {"ready": true}, then every distinct sample SDL had until
standard input closes, in one JSON line with its type and touchpad count.

Usage: sdl_evdev_probe.py
"""
import ctypes
import json
import os
import select
import sys

os.environ["SDL_JOYSTICK_HIDAPI"] = "0"
import sdl2  # noqa: E402

MAX_READINGS = 512


def stdin_closed() -> bool:
    """True once standard input is at its end; waits 20 ms for it: 50 samples a second, as the
    poses last 300 ms and the VM's other readers need the CPU."""
    readable, _, _ = select.select([sys.stdin], [], [], 0.020)
    return bool(readable) and not os.read(sys.stdin.fileno(), 64)


sdl2.SDL_Init(sdl2.SDL_INIT_GAMECONTROLLER | sdl2.SDL_INIT_SENSOR)
version = sdl2.SDL_version()
sdl2.SDL_GetVersion(ctypes.byref(version))
result = {"sdl": f"{version.major}.{version.minor}.{version.patch}", "sensors": False}
controller = None
for index in range(sdl2.SDL_NumJoysticks()):
    if not sdl2.SDL_IsGameController(index):
        continue
    controller = sdl2.SDL_GameControllerOpen(index)
    if (sdl2.SDL_GameControllerHasSensor(controller, sdl2.SDL_SENSOR_GYRO)
            and sdl2.SDL_GameControllerHasSensor(controller, sdl2.SDL_SENSOR_ACCEL)):
        break
    sdl2.SDL_GameControllerClose(controller)
    controller = None
if controller:
    sdl2.SDL_GameControllerSetSensorEnabled(controller, sdl2.SDL_SENSOR_GYRO, sdl2.SDL_TRUE)
    sdl2.SDL_GameControllerSetSensorEnabled(controller, sdl2.SDL_SENSOR_ACCEL, sdl2.SDL_TRUE)
print(json.dumps({"ready": True}), flush=True)
readings: list[list[float]] = []
event = sdl2.SDL_Event()
gyro = (ctypes.c_float * 3)()
accel = (ctypes.c_float * 3)()
while controller and not stdin_closed():
    while sdl2.SDL_PollEvent(ctypes.byref(event)):
        pass
    sdl2.SDL_GameControllerGetSensorData(controller, sdl2.SDL_SENSOR_GYRO, gyro, 3)
    sdl2.SDL_GameControllerGetSensorData(controller, sdl2.SDL_SENSOR_ACCEL, accel, 3)
    sample = list(gyro) + list(accel)
    if len(readings) < MAX_READINGS and (not readings or readings[-1] != sample):
        readings.append(sample)
if controller:
    result.update(sensors=True, name=sdl2.SDL_GameControllerName(controller).decode(),
                  type=sdl2.SDL_GameControllerGetType(controller),
                  touchpads=sdl2.SDL_GameControllerGetNumTouchpads(controller),
                  gyro=list(gyro), accel=list(accel), readings=readings)
print(json.dumps(result))
sdl2.SDL_Quit()
