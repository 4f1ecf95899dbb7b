#include "accel/storage.hpp"

#include <algorithm>

#include "src/core/backend.hpp"
#include "src/core/eval.hpp"
#include "src/core/graph.hpp"

namespace accel {

Storage::Storage(Device device, size_t nbytes, std::shared_ptr<Node> producer)
    : device_(device), nbytes_(nbytes), producer_(std::move(producer)) {}

Storage::Storage(Device device, size_t nbytes, void* ptr)
    : device_(device), nbytes_(nbytes), ptr_(ptr), owns_(true) {}

Storage::Storage(Device device, size_t nbytes, void* ptr, std::shared_ptr<void> owner)
    : device_(device), nbytes_(nbytes), ptr_(ptr), owner_(std::move(owner)) {}

Storage::~Storage() {
  if (owns_ && ptr_) backend_for(device_).deallocate(ptr_, nbytes_);
}

void Storage::set_data(void* ptr) {
  ptr_ = ptr;
  owns_ = true;
}

void Storage::add_reader(const std::shared_ptr<Node>& node) {
  // Drop readers that are gone before the list grows, so that it stays proportional to the
  // live pending readers.
  if (readers_.size() >= 8 && readers_.size() == readers_.capacity()) {
    std::erase_if(readers_, [](const std::weak_ptr<Node>& w) { return w.expired(); });
  }
  readers_.push_back(node);
}

std::vector<std::weak_ptr<Node>> Storage::take_readers() { return std::exchange(readers_, {}); }

void prepare_write(Storage& storage) {
  if (storage.is_pending()) evaluate_storages({&storage});
  std::vector<Storage*> pending;
  std::vector<std::shared_ptr<Node>> keep;  // keeps readers alive while their outputs are found
  for (const std::weak_ptr<Node>& w : storage.take_readers()) {
    if (std::shared_ptr<Node> node = w.lock()) {
      if (Storage* out = node->output) pending.push_back(out);
      keep.push_back(std::move(node));
    }
  }
  if (!pending.empty()) evaluate_storages(pending);
  storage.bump_version();
}

}  // namespace accel
