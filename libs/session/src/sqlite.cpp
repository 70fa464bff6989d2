#include "sqlite.hpp"

#include <sqlite3.h>

#include <chrono>
#include <thread>

#include "frost/core/error.hpp"

namespace frost::session::sql {

Database::Database(const std::string& path, bool create, int busy_timeout_ms)
    : path_(path), busy_timeout_ms_(busy_timeout_ms) {
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw_input_error(path, "cannot open the session journal (" + why + ")");
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, busy_timeout_ms);
}

Database::~Database() { sqlite3_close_v2(db_); }

bool Database::last_was_busy() const {
  const int code = sqlite3_errcode(db_) & 0xff;
  return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

void Database::retry_while_busy(const std::function<void()>& step) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms_);
  for (int attempt = 0;; ++attempt) {
    try {
      step();
      return;
    } catch (const Error&) {
      if (!last_was_busy() || std::chrono::steady_clock::now() >= deadline) throw;
    }
    // Short waits first: the other process holds the file for milliseconds.
    std::this_thread::sleep_for(std::chrono::milliseconds(attempt < 10 ? 5 : 50));
  }
}

void Database::fail(const std::string& what) const {
  std::string why = sqlite3_errmsg(db_);
  const int code = sqlite3_errcode(db_) & 0xff;
  if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
    why += "; another process held the journal longer than the busy timeout";
  throw_input_error(path_, what + " (" + why + ")");
}

void Database::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    const int code = sqlite3_errcode(db_) & 0xff;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
      why += "; another process held the journal longer than the busy timeout";
    throw_input_error(path_, "journal statement failed (" + why + ")");
  }
}

Statement Database::prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) fail("cannot prepare a journal query");
  return Statement(*this, stmt);
}

int Database::changes() const { return sqlite3_changes(db_); }

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int i, std::int64_t v) {
  if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK) db_->fail("cannot bind a journal value");
  return *this;
}
Statement& Statement::bind(int i, double v) {
  if (sqlite3_bind_double(stmt_, i, v) != SQLITE_OK) db_->fail("cannot bind a journal value");
  return *this;
}
Statement& Statement::bind(int i, const std::string& v) {
  if (sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) != SQLITE_OK)
    db_->fail("cannot bind a journal value");
  return *this;
}
Statement& Statement::bind_null(int i) {
  if (sqlite3_bind_null(stmt_, i) != SQLITE_OK) db_->fail("cannot bind a journal value");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_->fail("journal query failed");
}

void Statement::run() {
  while (step()) {
  }
}

std::int64_t Statement::int64(int col) const { return sqlite3_column_int64(stmt_, col); }
double Statement::real(int col) const { return sqlite3_column_double(stmt_, col); }
std::string Statement::text(int col) const {
  const unsigned char* t = sqlite3_column_text(stmt_, col);
  return t ? std::string(reinterpret_cast<const char*>(t), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
           : std::string();
}
bool Statement::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

WriteTransaction::WriteTransaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

WriteTransaction::~WriteTransaction() {
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void WriteTransaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

ReadTransaction::ReadTransaction(Database& db) : db_(db) { db_.exec("BEGIN DEFERRED"); }

ReadTransaction::~ReadTransaction() { sqlite3_exec(db_.handle(), "COMMIT", nullptr, nullptr, nullptr); }

} // namespace frost::session::sql
