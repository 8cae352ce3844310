//! The statements around a table's `CREATE TABLE` and `INSERT`s: the
//! session settings that make the values mean what they meant (character
//! set `utf8mb4`, UTC for TIMESTAMPs, zero dates and a zero
//! AUTO_INCREMENT value accepted, strict mode so that a value the server
//! cannot take stops the load rather than being changed), set at the
//! start and put back at the end.

/// The dump's first lines: what it is, then the session settings.
/// `comments` are written as `--` lines first (the file, the table, where
/// its definition came from).
pub fn head(comments: &[String]) -> String {
    let mut s = String::new();
    for c in comments {
        for line in c.lines() {
            s.push_str("-- ");
            s.push_str(line);
            s.push('\n');
        }
    }
    s.push_str(
        "SET NAMES utf8mb4;\n\
         SET @OLD_SQL_MODE = @@SQL_MODE, SQL_MODE = 'STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION';\n\
         SET @OLD_TIME_ZONE = @@TIME_ZONE, TIME_ZONE = '+00:00';\n\
         SET @OLD_FOREIGN_KEY_CHECKS = @@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS = 0;\n\
         SET @OLD_UNIQUE_CHECKS = @@UNIQUE_CHECKS, UNIQUE_CHECKS = 0;\n",
    );
    s
}

/// The dump's last lines: the session settings put back, and `comments`
/// (the rows written, what could not be read) as `--` lines.
pub fn tail(comments: &[String]) -> String {
    let mut s = String::from(
        "SET SQL_MODE = @OLD_SQL_MODE;\n\
         SET TIME_ZONE = @OLD_TIME_ZONE;\n\
         SET FOREIGN_KEY_CHECKS = @OLD_FOREIGN_KEY_CHECKS;\n\
         SET UNIQUE_CHECKS = @OLD_UNIQUE_CHECKS;\n",
    );
    for c in comments {
        for line in c.lines() {
            s.push_str("-- ");
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}
