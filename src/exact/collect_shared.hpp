// What the collector's workers share (collect.cpp): the queue of regions handed from one
// worker to another, the list's scores and its bar, the halt, and with classes the class
// representatives. Header only; its users are collector.hpp and collect.cpp.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <iterator>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "exact/best_list.hpp"
#include "exact/imset.hpp"
#include "exact/list_memory.hpp"

namespace bnsl::exact::detail {

// Column bounds that differ from [0, 1]: a region of the search, handed between workers.
struct Bound {
  int col;
  double lo, up;
};
using Task = std::vector<Bound>;

// What the workers share: the regions handed out and not yet taken, the scores listed and the
// bar, the halt, and (classes) the class representatives.
class Shared {
 public:
  Shared(int threads, std::size_t max_solutions, bool classes, int n)
      : threads_(threads),
        max_(max_solutions),
        classes_(classes),
        best_(max_solutions),
        memory_(n) {
    queue_.emplace_back();  // the root region
  }

  // The next region to search; false when there is none left (the tree is exhausted: every
  // worker waits and nothing is queued) or the collection halted.
  bool pop(Task& task) {
    std::unique_lock lock(mutex_);
    ++idle_;
    update_hungry();
    for (;;) {
      if (halted_.load() || over_) break;
      if (!queue_.empty()) {
        task = std::move(queue_.front());
        queue_.pop_front();
        --idle_;
        update_hungry();
        return true;
      }
      if (idle_ == threads_) {
        over_ = true;
        ready_.notify_all();
        break;
      }
      ready_.wait(lock);
    }
    return false;
  }
  void push(Task task) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(task));
      update_hungry();
    }
    ready_.notify_one();
  }
  // Some worker waits for a region that nobody has handed out yet.
  bool hungry() const { return hungry_.load(std::memory_order_relaxed) > 0; }
  void set_workers(int threads) { threads_ = threads; }  // before the first pop
  int workers() const { return threads_; }

  void halt() {
    {
      std::lock_guard lock(mutex_);
      halted_.store(true);
    }
    ready_.notify_all();
  }
  bool halted() const { return halted_.load(std::memory_order_relaxed); }
  bool exhausted() const { return over_ && !halted_.load(); }

  std::size_t listed() const { return listed_.load(std::memory_order_relaxed); }

  // A DAG (class) scoring `score` within the threshold was met: whether the list takes it
  // (BestScores::admit), the bar read by the workers without the lock.
  bool admit(double score) {
    std::lock_guard lock(best_mutex_);
    const bool taken = best_.admit(score);
    listed_.store(best_.listed(), std::memory_order_relaxed);
    bar_.store(best_.bar(), std::memory_order_relaxed);
    dropped_.store(best_.dropped(), std::memory_order_relaxed);
    if (taken && memory_.short_of(best_.listed()))  // the workers halt at their next check
      memory_short_.store(true, std::memory_order_relaxed);
    return taken;
  }
  // The list would not fit in memory as a pool (list_memory.hpp): the collection halts.
  bool memory_short() const { return memory_short_.load(std::memory_order_relaxed); }
  double memory_left() {
    std::lock_guard lock(best_mutex_);
    return memory_.left();
  }
  // The worst listed score once more than max_solutions were met (-inf before): DAGs scoring
  // below it are not listed.
  double bar() const { return bar_.load(std::memory_order_relaxed); }
  // Some DAG (class) within the threshold was left out of the list or dropped from it.
  bool dropped() const { return dropped_.load(std::memory_order_relaxed); }

  // Classes: a member of a class within the threshold was met. The class's representative is
  // the member met with the smallest family indices, so a complete list is the same whatever
  // the threads and the order they met the members in. Returns the key when the class is new
  // and the list takes it (admit).
  const ImsetKey* meet_class(ImsetKey key, std::vector<std::uint32_t>& choice, double score) {
    std::lock_guard lock(seen_mutex_);
    const auto [it, inserted] = seen_.try_emplace(std::move(key));
    if (inserted) {
      if (!admit(score)) {
        seen_.erase(it);
        return nullptr;
      }
      it->second = {std::move(choice), score};
      // Classes that left the list stay known until they are twice as many as it holds.
      if (seen_.size() >= 2 * max_ && bar() > -kInfinity) forget_below_bar();
      return &it->first;  // map nodes stay put
    }
    if (choice < it->second.choice) it->second.choice = std::move(choice);
    return nullptr;
  }
  void take_classes(std::vector<Choice>& out, std::vector<double>& scores) {
    for (auto& entry : seen_) {
      out.push_back(std::move(entry.second.choice));
      scores.push_back(entry.second.score);
    }
  }
  bool classes() const { return classes_; }

 private:
  void update_hungry() {
    hungry_.store(idle_ - static_cast<int>(queue_.size()), std::memory_order_relaxed);
  }
  // A class below the bar met again is refused by admit(), as any DAG below it.
  void forget_below_bar() {
    const double bar = this->bar();
    for (auto it = seen_.begin(); it != seen_.end();)
      it = it->second.score < bar ? seen_.erase(it) : std::next(it);
  }
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  struct Representative {
    std::vector<std::uint32_t> choice;
    double score = 0;
  };

  int threads_;
  const std::size_t max_;
  const bool classes_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> queue_;
  int idle_ = 0;
  bool over_ = false;
  std::atomic<int> hungry_{0};
  std::atomic<bool> halted_{false};
  std::atomic<std::size_t> listed_{0};
  std::mutex best_mutex_;
  BestScores best_;
  ListMemory memory_;  // under best_mutex_
  std::atomic<bool> memory_short_{false};
  std::atomic<double> bar_{-kInfinity};
  std::atomic<bool> dropped_{false};
  std::mutex seen_mutex_;
  std::unordered_map<ImsetKey, Representative, ImsetKeyHash> seen_;
};

}  // namespace bnsl::exact::detail
