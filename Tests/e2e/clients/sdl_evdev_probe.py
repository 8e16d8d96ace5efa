"""SDL 2.30 or later (pysdl2-dll in the e2e venv) reading the DualSense through the kernel's
evdev nodes (SDL_JOYSTICK_HIDAPI=0), as s29_dualsense.py compares with SDL 2.26 over hidraw:
the first game controller with a gyro and an accelerometer, its sensors enabled for
MILLISECONDS, then one JSON line with its type, touchpad count and last sensor values.

Usage: sdl_evdev_probe.py MILLISECONDS
"""
import ctypes
import json
import os
import sys

os.environ["SDL_JOYSTICK_HIDAPI"] = "0"
import sdl2  # noqa: E402

milliseconds = int(sys.argv[1])
sdl2.SDL_Init(sdl2.SDL_INIT_GAMECONTROLLER | sdl2.SDL_INIT_SENSOR)
version = sdl2.SDL_version()
sdl2.SDL_GetVersion(ctypes.byref(version))
result = {"sdl": f"{version.major}.{version.minor}.{version.patch}", "sensors": False}
for index in range(sdl2.SDL_NumJoysticks()):
    if not sdl2.SDL_IsGameController(index):
        continue
    controller = sdl2.SDL_GameControllerOpen(index)
    if not (sdl2.SDL_GameControllerHasSensor(controller, sdl2.SDL_SENSOR_GYRO)
            and sdl2.SDL_GameControllerHasSensor(controller, sdl2.SDL_SENSOR_ACCEL)):
        sdl2.SDL_GameControllerClose(controller)
        continue
    sdl2.SDL_GameControllerSetSensorEnabled(controller, sdl2.SDL_SENSOR_GYRO, sdl2.SDL_TRUE)
    sdl2.SDL_GameControllerSetSensorEnabled(controller, sdl2.SDL_SENSOR_ACCEL, sdl2.SDL_TRUE)
    end = sdl2.SDL_GetTicks() + milliseconds
    event = sdl2.SDL_Event()
    while sdl2.SDL_GetTicks() < end:
        while sdl2.SDL_PollEvent(ctypes.byref(event)):
            pass
        sdl2.SDL_Delay(5)
    gyro = (ctypes.c_float * 3)()
    accel = (ctypes.c_float * 3)()
    sdl2.SDL_GameControllerGetSensorData(controller, sdl2.SDL_SENSOR_GYRO, gyro, 3)
    sdl2.SDL_GameControllerGetSensorData(controller, sdl2.SDL_SENSOR_ACCEL, accel, 3)
    result.update(sensors=True, name=sdl2.SDL_GameControllerName(controller).decode(),
                  type=sdl2.SDL_GameControllerGetType(controller),
                  touchpads=sdl2.SDL_GameControllerGetNumTouchpads(controller),
                  gyro=list(gyro), accel=list(accel))
    break
print(json.dumps(result))
sdl2.SDL_Quit()
