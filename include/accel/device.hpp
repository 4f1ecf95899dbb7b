// Where an array lives.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace accel {

enum class DeviceType : uint8_t { CPU, CUDA };

struct Device {
  DeviceType type = DeviceType::CPU;
  int index = 0;

  static Device cpu() { return {DeviceType::CPU, 0}; }
  static Device cuda(int index = 0) { return {DeviceType::CUDA, index}; }

  bool is_cpu() const { return type == DeviceType::CPU; }
  bool is_cuda() const { return type == DeviceType::CUDA; }
  friend bool operator==(const Device& a, const Device& b) {
    return a.type == b.type && a.index == b.index;
  }
  friend bool operator!=(const Device& a, const Device& b) { return !(a == b); }

  // "cpu", "cuda:0"
  std::string str() const;
  // Parses "cpu", "cuda", "cuda:1", "gpu", "gpu:0"; ValueError otherwise.
  static Device parse(std::string_view text);
};

// Threads the CPU backend splits work over (default: ACCELPY_NUM_THREADS, else all cores).
int cpu_num_threads();
void set_cpu_num_threads(int n);

// Where new arrays go when no device is named: set by `with ap.device(...)` in Python.
Device default_device();
void set_default_device(Device device);

}  // namespace accel
