#pragma once
// Thin RAII over the SQLite C API for the journal: a connection, prepared statements and
// write transactions. Every failure is a frost::Error(Input) naming the database file.
#include <cstdint>
#include <functional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace frost::session::sql {

class Statement;

/// One connection to a database file.
class Database {
public:
  /// Opens (creating when `create`) the file; `busy_timeout_ms` is how long a statement waits
  /// for another connection's lock before it fails.
  Database(const std::string& path, bool create, int busy_timeout_ms);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  /// Runs SQL without results (several statements allowed).
  void exec(const std::string& sql);
  Statement prepare(const std::string& sql);
  /// Rows changed by the last INSERT/UPDATE/DELETE.
  int changes() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() { return db_; }

  /// Throws frost::Error(Input) "<path>: <what> (<SQLite's message>)".
  [[noreturn]] void fail(const std::string& what) const;

  /// Runs `step` again while it fails because another connection holds the file, for up to the
  /// busy timeout. For what SQLite answers BUSY at once instead of waiting: switching the journal
  /// mode, or the schema of a file that another process is creating at the same moment.
  void retry_while_busy(const std::function<void()>& step);

private:
  bool last_was_busy() const;

  sqlite3* db_ = nullptr;
  std::string path_;
  int busy_timeout_ms_ = 0;
};

/// A prepared statement; bind() indices are 1-based, column() indices 0-based.
class Statement {
public:
  Statement(Database& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  ~Statement();
  Statement(Statement&& o) noexcept : db_(o.db_), stmt_(o.stmt_) { o.stmt_ = nullptr; }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, const std::string& v);
  Statement& bind_null(int i);
  /// Advances; true while a row is available.
  bool step();
  /// step() for statements without results.
  void run();

  std::int64_t int64(int col) const;
  double real(int col) const;
  std::string text(int col) const;
  bool is_null(int col) const;

private:
  Database* db_;
  sqlite3_stmt* stmt_;
};

/// BEGIN IMMEDIATE ... COMMIT: the write lock is taken at the start, so two processes never both
/// read and then race to write (which SQLite would answer with SQLITE_BUSY mid-transaction).
/// Rolled back when destroyed uncommitted.
class WriteTransaction {
public:
  explicit WriteTransaction(Database& db);
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  void commit();

private:
  Database& db_;
  bool open_ = true;
};

/// A read snapshot (BEGIN DEFERRED ... COMMIT): several SELECTs see one state of the file.
class ReadTransaction {
public:
  explicit ReadTransaction(Database& db);
  ~ReadTransaction();
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;

private:
  Database& db_;
};

} // namespace frost::session::sql
