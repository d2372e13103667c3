// The MPI communication layer (bnsl/comm.hpp). Collectives run on the calling thread over a
// duplicate of MPI_COMM_WORLD; everything else goes through a progress thread of each process,
// on a second duplicate, so that no worker thread ever blocks in MPI:
// - the work queue: rank 0's progress thread answers other ranks' requests for chunks of
//   items (its own threads draw from the same counter directly); a rank asks again only when
//   its threads have used up its chunk;
// - messages: post() queues them, the progress thread sends them (synchronous mode, so that a
//   completed send means the message was received) and files arriving ones for receive();
//   flush() is the non-blocking consensus of Hoefler et al. (PPoPP 2010): every send completed,
//   then a non-blocking barrier while the thread keeps receiving;
// - stop notices: the first signal this process receives (or propagates) is sent to every other
//   process, which propagates it (bnsl/stop.hpp), so a SIGTERM to one process ends them all.
// MPI counts are ints, so byte strings travel in pieces of at most kPiece bytes.
#ifdef BNSL_HAVE_MPI

#include "parallel/mpi_comm.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <list>
#include <stdexcept>
#include <thread>

#include "bnsl/stop.hpp"

namespace bnsl {
namespace {

constexpr std::size_t kPiece = std::size_t{1} << 30;
constexpr auto kIdleSleep = std::chrono::microseconds(500);

enum Tag : int { kClaim = 1, kChunk = 2, kStop = 3, kData = 4, kPieceTag = 5 };

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

class MpiComm final : public Comm {
 public:
  MpiComm(int& argc, char**& argv) {
    int provided = 0;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_MULTIPLE) {
      MPI_Finalize();
      throw std::runtime_error(
          "MPI: the MPI library does not support MPI_THREAD_MULTIPLE, which bnsl needs");
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &world_);
    MPI_Comm_dup(MPI_COMM_WORLD, &async_);
    MPI_Comm_set_errhandler(world_, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_rank(world_, &rank_);
    MPI_Comm_size(world_, &size_);
    done_ranks_.assign(static_cast<std::size_t>(size_), false);
    progress_ = std::thread([this] { progress_loop(); });
  }

  ~MpiComm() override {
    try {
      flush();
    } catch (...) {
    }
    running_.store(false);
    progress_.join();
    MPI_Comm_free(&async_);
    MPI_Comm_free(&world_);
    MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string describe() const override {
    return "MPI, " + std::to_string(size_) + (size_ == 1 ? " process" : " processes");
  }

  std::vector<std::string> all_gather(std::string bytes) override {
    std::vector<std::uint64_t> sizes = exchange_sizes(bytes.size(), true);
    std::vector<std::string> out(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) {
      std::string& b = out[static_cast<std::size_t>(r)];
      if (r == rank_)
        b = bytes;
      else
        b.resize(sizes[static_cast<std::size_t>(r)]);
      for (std::size_t at = 0; at < b.size(); at += kPiece)
        check(MPI_Bcast(b.data() + at, static_cast<int>(std::min(kPiece, b.size() - at)), MPI_BYTE,
                        r, world_),
              "MPI_Bcast");
      (r == rank_ ? sent_ : received_) += b.size();
    }
    return out;
  }

  std::vector<std::string> gather(std::string bytes) override {
    std::vector<std::uint64_t> sizes = exchange_sizes(bytes.size(), false);
    std::vector<std::string> out;
    if (rank_ != 0) {
      for (std::size_t at = 0; at < bytes.size(); at += kPiece)
        check(MPI_Send(bytes.data() + at, static_cast<int>(std::min(kPiece, bytes.size() - at)),
                       MPI_BYTE, 0, kPieceTag, world_),
              "MPI_Send");
      sent_ += bytes.size();
      return out;
    }
    out.resize(static_cast<std::size_t>(size_));
    out[0] = std::move(bytes);
    for (int r = 1; r < size_; ++r) {
      std::string& b = out[static_cast<std::size_t>(r)];
      b.resize(sizes[static_cast<std::size_t>(r)]);
      for (std::size_t at = 0; at < b.size(); at += kPiece)
        check(MPI_Recv(b.data() + at, static_cast<int>(std::min(kPiece, b.size() - at)), MPI_BYTE,
                       r, kPieceTag, world_, MPI_STATUS_IGNORE),
              "MPI_Recv");
      received_ += b.size();
    }
    return out;
  }

  std::string broadcast(std::string bytes) override {
    std::uint64_t n = bytes.size();
    check(MPI_Bcast(&n, 1, MPI_UINT64_T, 0, world_), "MPI_Bcast");
    bytes.resize(n);
    for (std::size_t at = 0; at < bytes.size(); at += kPiece)
      check(MPI_Bcast(bytes.data() + at, static_cast<int>(std::min(kPiece, bytes.size() - at)),
                      MPI_BYTE, 0, world_),
            "MPI_Bcast");
    (rank_ == 0 ? sent_ : received_) += bytes.size();
    return bytes;
  }

  void barrier() override { check(MPI_Barrier(world_), "MPI_Barrier"); }

  void open_queue(std::size_t count, int workers) override {
    {
      std::lock_guard<std::mutex> lock(claim_mutex_);
      local_ = {};
      queue_done_ = false;
    }
    if (rank_ == 0) {
      std::lock_guard<std::mutex> lock(state_mutex_);
      std::fill(done_ranks_.begin(), done_ranks_.end(), false);
      done_count_ = 0;
    }
    int mine = std::max(1, workers), total = 0;
    check(MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, world_), "MPI_Allreduce");
    Comm::open_queue(count, total);
    if (rank_ == 0) queue_ready_.store(true);
    barrier();  // rank 0's queue is open before anyone asks
  }

  ItemRange next_items() override {
    if (rank_ == 0) return take_chunk();
    std::unique_lock<std::mutex> lock(claim_mutex_);
    if (local_.begin == local_.end && !queue_done_) {
      reply_ready_ = false;
      enqueue(0, kClaim, std::string());
      reply_cv_.wait(lock, [this] { return reply_ready_; });
      local_ = reply_;
      if (local_.begin == local_.end) queue_done_ = true;
    }
    if (local_.begin == local_.end) return {};
    ItemRange one{local_.begin, local_.begin + 1};
    ++local_.begin;
    return one;
  }

  void close_queue() override {
    if (rank_ == 0) {
      // Every other rank has been told that the queue is empty.
      for (;;) {
        {
          std::lock_guard<std::mutex> lock(state_mutex_);
          if (done_count_ == size_ - 1) break;
        }
        std::this_thread::sleep_for(kIdleSleep);
      }
      queue_ready_.store(false);
    }
    barrier();
  }

  void post(int to, std::string bytes) override { enqueue(to, kData, std::move(bytes)); }

  std::optional<std::pair<int, std::string>> receive() override {
    std::lock_guard<std::mutex> lock(state_mutex_);
    if (inbox_.empty()) return std::nullopt;
    auto m = std::move(inbox_.front());
    inbox_.pop_front();
    return m;
  }

  void flush() override {
    // Every message this process posted has been received ...
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(state_mutex_);
        if (outbox_.empty() && sending_ == 0) break;
      }
      std::this_thread::sleep_for(kIdleSleep);
    }
    // ... and so has every other process's, once all are here.
    MPI_Request req;
    check(MPI_Ibarrier(async_, &req), "MPI_Ibarrier");
    for (int done = 0; !done;) {
      check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (!done) std::this_thread::sleep_for(kIdleSleep);
    }
    // A message matched before the barrier is in the inbox after the thread's next round.
    const std::uint64_t round = rounds_.load();
    while (rounds_.load() < round + 2 && running_.load()) std::this_thread::sleep_for(kIdleSleep);
  }

  Traffic traffic() const override { return {sent_.load(), received_.load()}; }

  [[noreturn]] void abort(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);
  }

 private:
  struct Outgoing {
    int to;
    int tag;
    std::string bytes;
  };
  struct Sending {
    MPI_Request request;
    std::string bytes;
  };

  std::vector<std::uint64_t> exchange_sizes(std::uint64_t mine, bool everywhere) {
    std::vector<std::uint64_t> sizes(static_cast<std::size_t>(size_));
    if (everywhere)
      check(MPI_Allgather(&mine, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, world_),
            "MPI_Allgather");
    else
      check(MPI_Gather(&mine, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, world_),
            "MPI_Gather");
    return sizes;
  }

  void enqueue(int to, int tag, std::string bytes) {
    std::lock_guard<std::mutex> lock(state_mutex_);
    outbox_.push_back({to, tag, std::move(bytes)});
  }

  // One round: send what was queued, complete sends, stop notices, receive what arrived,
  // answer requests for items. Returns whether anything happened.
  bool progress_round() {
    bool busy = false;
    std::deque<Outgoing> out;
    {
      std::lock_guard<std::mutex> lock(state_mutex_);
      out.swap(outbox_);
      sending_ += out.size();
    }
    if (!stop_sent_ && signal_received()) {
      stop_sent_ = true;
      const int sig = received_signal();
      std::string b(sizeof sig, '\0');
      std::memcpy(b.data(), &sig, sizeof sig);
      for (int r = 0; r < size_; ++r)
        if (r != rank_) {
          out.push_back({r, kStop, b});
          std::lock_guard<std::mutex> lock(state_mutex_);
          ++sending_;
        }
    }
    for (Outgoing& o : out) {
      busy = true;
      sent_ += o.bytes.size();
      sends_.push_back({MPI_REQUEST_NULL, std::move(o.bytes)});
      Sending& s = sends_.back();
      MPI_Issend(s.bytes.data(), static_cast<int>(s.bytes.size()), MPI_BYTE, o.to, o.tag, async_,
                 &s.request);
    }
    for (auto it = sends_.begin(); it != sends_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      if (!done) {
        ++it;
        continue;
      }
      it = sends_.erase(it);
      std::lock_guard<std::mutex> lock(state_mutex_);
      --sending_;
    }
    for (;;) {
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, async_, &flag, &status);
      if (!flag) break;
      busy = true;
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      std::string b(static_cast<std::size_t>(count), '\0');
      MPI_Recv(b.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, async_,
               MPI_STATUS_IGNORE);
      received_ += static_cast<std::uint64_t>(count);
      on_message(status.MPI_SOURCE, status.MPI_TAG, std::move(b));
    }
    if (rank_ == 0 && queue_ready_.load() && !claims_.empty()) {
      busy = true;
      for (int from : claims_) answer_claim(from);
      claims_.clear();
    }
    rounds_.fetch_add(1);
    return busy;
  }

  void on_message(int from, int tag, std::string bytes) {
    if (tag == kClaim) {
      claims_.push_back(from);
    } else if (tag == kChunk && bytes.size() == 2 * sizeof(std::uint64_t)) {
      std::uint64_t r[2];
      std::memcpy(r, bytes.data(), sizeof r);
      std::lock_guard<std::mutex> lock(claim_mutex_);
      reply_ = {r[0], r[1]};
      reply_ready_ = true;
      reply_cv_.notify_all();
    } else if (tag == kStop && bytes.size() == sizeof(int)) {
      int sig = 0;
      std::memcpy(&sig, bytes.data(), sizeof sig);
      stop_sent_ = true;  // the sender told everyone
      propagate_signal(sig);
    } else if (tag == kData) {
      std::lock_guard<std::mutex> lock(state_mutex_);
      inbox_.emplace_back(from, std::move(bytes));
    }
  }

  void answer_claim(int from) {
    const ItemRange r = take_chunk();
    const std::uint64_t v[2] = {r.begin, r.end};
    std::string b(sizeof v, '\0');
    std::memcpy(b.data(), v, sizeof v);
    std::lock_guard<std::mutex> lock(state_mutex_);
    outbox_.push_back({from, kChunk, std::move(b)});
    if (r.begin == r.end && !done_ranks_[static_cast<std::size_t>(from)]) {
      done_ranks_[static_cast<std::size_t>(from)] = true;
      ++done_count_;
    }
  }

  void progress_loop() {
    while (running_.load())
      if (!progress_round()) std::this_thread::sleep_for(kIdleSleep);
    // Sends still in flight at the end (none after flush()) are cancelled.
    for (Sending& s : sends_) {
      MPI_Cancel(&s.request);
      MPI_Request_free(&s.request);
    }
  }

  MPI_Comm world_ = MPI_COMM_NULL, async_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::thread progress_;
  std::atomic<bool> running_{true};
  std::atomic<std::uint64_t> rounds_{0};
  std::atomic<std::uint64_t> sent_{0}, received_{0};
  // Progress thread only.
  std::list<Sending> sends_;
  std::vector<int> claims_;  // ranks waiting for items (rank 0)
  bool stop_sent_ = false;
  // Guarded by state_mutex_.
  std::mutex state_mutex_;
  std::deque<Outgoing> outbox_;
  std::size_t sending_ = 0;  // queued or in flight
  std::deque<std::pair<int, std::string>> inbox_;
  std::vector<bool> done_ranks_;  // rank 0: told that the queue is empty
  int done_count_ = 0;
  std::atomic<bool> queue_ready_{false};
  // Guarded by claim_mutex_: this rank's chunk and rank 0's last answer.
  std::mutex claim_mutex_;
  std::condition_variable reply_cv_;
  ItemRange local_, reply_;
  bool reply_ready_ = false, queue_done_ = false;
};

}  // namespace

std::unique_ptr<Comm> make_mpi_comm(int& argc, char**& argv) {
  return std::make_unique<MpiComm>(argc, argv);
}

}  // namespace bnsl

#endif  // BNSL_HAVE_MPI
