//! Reading the files pcl opens, under one rule, and whose files pcl trusts.
//!
//! **Regular files only, with a size bound.** Every file pcl reads (a
//! program file, a component's file, `pcl.toml`, `Pulumi.yaml`, a schema,
//! a `--config FILE`) goes through [`read_regular_file`]: the path is
//! looked at before it is opened, so a FIFO, a device or a directory is
//! never opened ([`ReadError::NotRegular`]); it is opened without blocking
//! (`O_NONBLOCK`, so a FIFO swapped in after the look cannot hang the
//! open) and looked at again through the handle, since what counts is what
//! was opened; and it is read through `take(limit + 1)`, so a file that
//! grows, or whose size the file system does not tell, stops at the limit
//! ([`ReadError::TooLarge`]). Standard input has no size to look at and is
//! read with [`read_bounded`] under the same limit. The limits:
//! [`MAX_SOURCE_BYTES`] for program files and standard input,
//! [`MAX_SETTINGS_BYTES`] for `pcl.toml` and `Pulumi.yaml`.
//!
//! **Files owned by another user.** A settings file or a project marker
//! that pcl finds by walking up from a program (`pcl.toml`, `Pulumi.yaml`,
//! `.git`) is used only when it is owned by the current user or by root,
//! git's `safe.directory` rule: in a world-writable directory such as
//! `/tmp`, anyone can plant a `pcl.toml` above someone else's program.
//! [`foreign_owner`] says whether an entry breaks that rule.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// The largest program file, and the most of standard input, pcl reads:
/// 64 MiB (real programs are at most a few MB; the generated benchmark
/// program is 16 MB).
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// The largest `pcl.toml` or `Pulumi.yaml` pcl reads: 1 MiB (settings
/// files are a few lines).
pub const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// A FIFO, a device, a socket or a directory: never read.
    NotRegular,
    /// More than `limit` bytes: `size` is the size the file system gave,
    /// `None` when the limit was reached while reading.
    TooLarge { size: Option<u64>, limit: u64 },
    /// Opening or reading failed.
    Io(io::Error),
}

/// What [`ReadError::NotRegular`] says.
pub const NOT_REGULAR: &str = "not a regular file";

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular => f.write_str(NOT_REGULAR),
            ReadError::TooLarge { size, limit } => {
                if let Some(size) = size {
                    write!(f, "the file is {size} bytes, ")?;
                }
                write!(f, "more than the limit of {limit} bytes")?;
                if *limit >= 1024 * 1024 && limit % (1024 * 1024) == 0 {
                    write!(f, " ({} MiB)", limit / (1024 * 1024))?;
                }
                Ok(())
            }
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    /// Whether the file was there at all (an error other than "not found").
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// The bytes of `path` (symbolic links followed) when it is a regular file
/// of at most `limit` bytes.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    // Look first: a FIFO or a device is never opened.
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    check(&meta, limit)?;
    let file = open_nonblocking(path).map_err(ReadError::Io)?;
    // The entry may have been replaced between the look and the open.
    let meta = file.metadata().map_err(ReadError::Io)?;
    check(&meta, limit)?;
    let capacity = usize::try_from(meta.len()).unwrap_or(0);
    read_with_capacity(file, limit, capacity)
}

/// All of `reader` (standard input) when it gives at most `limit` bytes;
/// it is never read further than one byte past the limit.
pub fn read_bounded(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_with_capacity(reader, limit, 0)
}

fn check(meta: &Metadata, limit: u64) -> Result<(), ReadError> {
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            size: Some(meta.len()),
            limit,
        });
    }
    Ok(())
}

fn read_with_capacity(
    reader: impl Read,
    limit: u64,
    capacity: usize,
) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::with_capacity(capacity);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        return Err(ReadError::TooLarge { size: None, limit });
    }
    Ok(bytes)
}

/// Opens `path` for reading without blocking on a FIFO.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    Ok(File::from(fd))
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// The owner of the entry at `path` (or, for a symbolic link, of its
/// target) when that owner is neither the current user nor root; `None`
/// when the entry is trusted or does not exist.
#[cfg(unix)]
pub fn foreign_owner(path: &Path) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    let foreign = |uid: u32| (uid != 0 && uid != me).then_some(uid);
    let entry = std::fs::symlink_metadata(path).ok()?;
    if let Some(uid) = foreign(entry.uid()) {
        return Some(uid);
    }
    if entry.file_type().is_symlink() {
        if let Ok(target) = std::fs::metadata(path) {
            return foreign(target.uid());
        }
    }
    None
}

#[cfg(not(unix))]
pub fn foreign_owner(_path: &Path) -> Option<u32> {
    None
}

/// What pcl says about an entry owned by another user that it did not use.
pub fn foreign_owner_note(shown: &str, uid: u32) -> String {
    format!(
        "`{}` is owned by another user (uid {uid}), so pcl does not use it (pcl uses the \
         pcl.toml, Pulumi.yaml and .git it finds above a program only when they belong to \
         you or to root; `--config FILE` uses a settings file whoever owns it)",
        crate::elide_quoted(shown)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("pcl-read-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        dir
    }

    #[test]
    fn reads_regular_files_under_the_limit() {
        let dir = temp("regular");
        let file = dir.join("a.pp");
        std::fs::write(&file, "abc").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_regular_file(&file, 3).ok(), Some(b"abc".to_vec()));
        let err = read_regular_file(&file, 2).err();
        assert!(
            matches!(
                err,
                Some(ReadError::TooLarge {
                    size: Some(3),
                    limit: 2
                })
            ),
            "{err:?}"
        );
        assert!(matches!(
            read_regular_file(&dir, 10),
            Err(ReadError::NotRegular)
        ));
        assert!(read_regular_file(&dir.join("none"), 10)
            .err()
            .is_some_and(|e| e.is_not_found()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_not_read_and_streams_stop_at_the_limit() {
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            assert!(matches!(
                read_regular_file(zero, 10),
                Err(ReadError::NotRegular)
            ));
            let file = File::open(zero).unwrap_or_else(|e| panic!("{e}"));
            let err = read_bounded(file, 1000).err();
            assert!(
                matches!(
                    err,
                    Some(ReadError::TooLarge {
                        size: None,
                        limit: 1000
                    })
                ),
                "{err:?}"
            );
        }
        assert_eq!(read_bounded(&b"xy"[..], 2).ok(), Some(b"xy".to_vec()));
    }

    #[test]
    fn messages() {
        let big = ReadError::TooLarge {
            size: Some(7),
            limit: MAX_SOURCE_BYTES,
        };
        assert_eq!(
            big.to_string(),
            "the file is 7 bytes, more than the limit of 67108864 bytes (64 MiB)"
        );
        let stream = ReadError::TooLarge {
            size: None,
            limit: 5,
        };
        assert_eq!(stream.to_string(), "more than the limit of 5 bytes");
        assert_eq!(ReadError::NotRegular.to_string(), NOT_REGULAR);
    }

    #[cfg(unix)]
    #[test]
    fn own_files_are_trusted() {
        let dir = temp("owner");
        let file = dir.join("pcl.toml");
        std::fs::write(&file, "").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(foreign_owner(&file), None);
        assert_eq!(foreign_owner(&dir.join("absent")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
