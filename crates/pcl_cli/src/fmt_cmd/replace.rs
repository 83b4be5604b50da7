//! How `pcl fmt` replaces a file without losing an edit, leaking its
//! contents or writing anywhere it was not asked to (issue 26 §1).
//!
//! The protocol, per file:
//!
//! 1. [`Opened::open`]: the parent directory is opened once and every later
//!    step works relative to that handle (`openat`, `renameat`), so a
//!    directory of the path swapped for a symbolic link later changes
//!    nothing. The file is opened without following a final symbolic link
//!    (`O_NOFOLLOW`; callers resolve links first and decide whether the
//!    target may be written), must be a regular file, and its identity
//!    (device, inode, size, modification time, mode, owner, link count) is
//!    taken from that open handle, then its contents are read through it.
//! 2. [`Opened::stage`]: a read-only file (no write permission bit for
//!    anyone, or not writable by this user) is refused. Otherwise the new
//!    text goes to a temporary file in the same directory with a short name
//!    (`.pcl-fmt-PID-N.tmp`, whatever the length of the original's), created
//!    exclusively (`O_CREAT|O_EXCL`) with the original's permission bits
//!    from the start, so it is never readable by more users than the
//!    original, not even while it is written or after a crash. It is given
//!    the original's owner and group (when running as root, or a group the
//!    user belongs to) and then its exact mode. A file with several hard
//!    links, or whose owner cannot be kept, is written in place instead
//!    (see 4), so the links and the owner stay.
//! 3. [`Staged::sync`]: the temporary file's contents reach the disk before
//!    it replaces anything (callers overlap these across files).
//! 4. [`Staged::commit`]: just before replacing, the path must still name
//!    the same file (device and inode, by `lstat`), with the same size and
//!    modification time, and its contents read again must be the bytes read
//!    in step 1; otherwise the temporary file is removed, nothing is
//!    touched and the result is [`Refusal::Changed`]. Then the temporary
//!    file is renamed over the original (or, in place: the new text is
//!    written over the old through a handle that is checked to be the same
//!    file, the rest truncated, then synced). The directory is synced by
//!    the caller, once per directory.
//!
//! An interruption leaves the old or the new contents (in place: the new
//! text is written before the old tail is cut, and a crash during that
//! write can leave a mix; that is the price of keeping hard links, as
//! editors pay it) and at worst a temporary file with the original's
//! permissions. What remains between the check of step 4 and the rename is
//! a window of two system calls.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, Mode, OFlags, CWD};

/// Why a file was not replaced (other than an I/O error).
#[derive(Debug)]
pub enum Refusal {
    /// The file changed (contents, size, time or identity) between the read
    /// and the replacement, or its name now is a symbolic link.
    Changed,
    /// No one may write to the file (no write permission bit), or this
    /// user may not.
    ReadOnly,
    /// Not a regular file.
    NotRegular,
    /// An I/O error, with what was being done.
    Io(&'static str, io::Error),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Changed => f.write_str("it changed while formatting"),
            Refusal::ReadOnly => f.write_str("it is read-only"),
            Refusal::NotRegular => f.write_str("not a regular file"),
            Refusal::Io(what, err) => write!(f, "cannot {what}: {err}"),
        }
    }
}

fn io(what: &'static str) -> impl FnOnce(io::Error) -> Refusal {
    move |err| Refusal::Io(what, err)
}

fn errno(what: &'static str) -> impl FnOnce(rustix::io::Errno) -> Refusal {
    move |err| Refusal::Io(what, err.into())
}

/// What identifies a file's version: checked again before replacing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    pub dev: u64,
    pub ino: u64,
    size: u64,
    mtime: (i64, i64),
    mode: u32,
    uid: u32,
    gid: u32,
    nlink: u64,
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Identity {
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            mode: meta.mode(),
            uid: meta.uid(),
            gid: meta.gid(),
            nlink: meta.nlink(),
        }
    }

    /// The same file, unchanged as far as its metadata tells.
    fn same_version(&self, other: &Identity) -> bool {
        (self.dev, self.ino, self.size, self.mtime)
            == (other.dev, other.ino, other.size, other.mtime)
    }
}

/// A file opened for formatting: its directory, name, identity and bytes.
#[derive(Debug)]
pub struct Opened {
    /// The directory as a path, for the test hook only.
    parent: PathBuf,
    dir: OwnedFd,
    name: OsString,
    file: File,
    identity: Identity,
    bytes: Vec<u8>,
}

/// The parent directory and final component of `path`.
fn split(path: &Path) -> io::Result<(PathBuf, OsString)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_os_string()))
}

impl Opened {
    /// Opens `path` (whose final component is not followed if it is a
    /// symbolic link) and reads it. With `dir_id`, its directory must be
    /// that one (device, inode): the one the caller checked.
    pub fn open(path: &Path, dir_id: Option<(u64, u64)>) -> Result<Opened, Refusal> {
        let (parent, name) = split(path).map_err(io("open"))?;
        let dir = rustix::fs::openat(
            CWD,
            &parent,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(errno("open its directory"))?;
        if let Some(expected) = dir_id {
            let stat = rustix::fs::fstat(&dir).map_err(errno("open its directory"))?;
            if (stat.st_dev, stat.st_ino) != expected {
                return Err(Refusal::Changed);
            }
        }
        let file = match rustix::fs::openat(
            &dir,
            &name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => File::from(fd),
            // O_NOFOLLOW on a symbolic link; callers give resolved paths,
            // so the name was swapped for a link after they looked.
            Err(rustix::io::Errno::LOOP) => return Err(Refusal::Changed),
            Err(err) => return Err(Refusal::Io("read", err.into())),
        };
        let meta = file.metadata().map_err(io("read"))?;
        if !meta.is_file() {
            return Err(Refusal::NotRegular);
        }
        let identity = Identity::of(&meta);
        // At most pcl's limit for a program file, checked while reading.
        let limit = pcl_diagnostics::read::MAX_SOURCE_BYTES;
        if meta.len() > limit {
            return Err(Refusal::Io(
                "read",
                io::Error::other(pcl_diagnostics::read::ReadError::TooLarge {
                    size: Some(meta.len()),
                    limit,
                }),
            ));
        }
        let bytes = pcl_diagnostics::read::read_bounded(&file, limit)
            .map_err(|e| Refusal::Io("read", io::Error::other(e)))?;
        Ok(Opened {
            parent,
            dir,
            name,
            file,
            identity,
            bytes,
        })
    }

    /// The bytes read.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Step 2: refuses a read-only file, else writes `new` to a temporary
    /// file (or prepares an in-place write).
    pub fn stage(self, new: &[u8]) -> Result<Staged, Refusal> {
        if self.identity.mode & 0o222 == 0 {
            return Err(Refusal::ReadOnly);
        }
        match rustix::fs::accessat(
            &self.dir,
            &self.name,
            rustix::fs::Access::WRITE_OK,
            AtFlags::EACCESS | AtFlags::SYMLINK_NOFOLLOW,
        ) {
            Ok(()) => {}
            Err(rustix::io::Errno::ACCESS | rustix::io::Errno::ROFS) => {
                return Err(Refusal::ReadOnly)
            }
            // Some kernels reject AT_SYMLINK_NOFOLLOW here; the identity
            // check of step 4 still holds.
            Err(rustix::io::Errno::INVAL) => {}
            Err(err) => return Err(Refusal::Io("write", err.into())),
        }
        if self.identity.nlink > 1 {
            return Ok(Staged {
                opened: self,
                new: new.to_vec(),
                temp: None,
            });
        }
        let (temp_name, temp) = create_temp(&self.dir, self.identity.mode & 0o777)?;
        self.test_hook("created", Some(&temp_name));
        let temp = File::from(temp);
        let written = (|| {
            (&temp)
                .write_all(new)
                .map_err(io("write a temporary file"))?;
            let meta = temp.metadata().map_err(io("write a temporary file"))?;
            let owner = (self.identity.uid != meta.uid()).then_some(self.identity.uid);
            let group = (self.identity.gid != meta.gid()).then_some(self.identity.gid);
            // Not ours to give away: keep the owner by writing in place.
            if (owner.is_some() || group.is_some())
                && std::os::unix::fs::fchown(temp.as_fd(), owner, group).is_err()
            {
                return Ok(false);
            }
            rustix::fs::fchmod(&temp, Mode::from_raw_mode(self.identity.mode & 0o7777))
                .map_err(errno("set a temporary file's mode"))?;
            Ok(true)
        })();
        match written {
            Ok(true) => Ok(Staged {
                opened: self,
                new: Vec::new(),
                temp: Some((temp_name, temp)),
            }),
            Ok(false) => {
                let _ = rustix::fs::unlinkat(&self.dir, &temp_name, AtFlags::empty());
                Ok(Staged {
                    opened: self,
                    new: new.to_vec(),
                    temp: None,
                })
            }
            Err(err) => {
                let _ = rustix::fs::unlinkat(&self.dir, &temp_name, AtFlags::empty());
                Err(err)
            }
        }
    }

    /// A test hook, in debug builds only: when `PCL_FMT_TEST_HOOK` is set,
    /// runs it with `sh -c`, in the file's directory, at the `stage` of the
    /// file's replacement, with `PCL_FMT_STAGE`, `PCL_FMT_NAME` (the file's
    /// name in that directory) and `PCL_FMT_TEMP` (the temporary file's,
    /// or empty) set. Stages: `read` (the file was read and formatted),
    /// `created` (its temporary file was just created, still empty),
    /// `staged` (the temporary file was written and synced; next come the
    /// check and the rename). The end-to-end tests (`tests/fmt_write.rs`)
    /// change the file there to race `pcl fmt` deterministically, or kill
    /// it. Release builds ignore it.
    pub fn test_hook(&self, stage: &str, temp: Option<&OsStr>) {
        if !cfg!(debug_assertions) {
            return;
        }
        let Some(hook) = std::env::var_os("PCL_FMT_TEST_HOOK") else {
            return;
        };
        let _ = std::process::Command::new("sh")
            .arg("-c")
            .arg(hook)
            .current_dir(&self.parent)
            .env("PCL_FMT_STAGE", stage)
            .env("PCL_FMT_NAME", &self.name)
            .env("PCL_FMT_TEMP", temp.unwrap_or_default())
            .status();
    }

    /// Step 4's check: the name still names the file read, unchanged.
    fn verify(&self) -> Result<(), Refusal> {
        let now = match rustix::fs::statat(&self.dir, &self.name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => stat,
            Err(rustix::io::Errno::NOENT) => return Err(Refusal::Changed),
            Err(err) => return Err(Refusal::Io("check", err.into())),
        };
        let now_id = (
            now.st_dev,
            now.st_ino,
            u64::try_from(now.st_size).unwrap_or(u64::MAX),
            (now.st_mtime, i64::try_from(now.st_mtime_nsec).unwrap_or(-1)),
        );
        let same_name = (now.st_mode & 0o170000) == 0o100000
            && now_id
                == (
                    self.identity.dev,
                    self.identity.ino,
                    self.identity.size,
                    self.identity.mtime,
                );
        if !same_name {
            return Err(Refusal::Changed);
        }
        let meta = self.file.metadata().map_err(io("check"))?;
        if !self.identity.same_version(&Identity::of(&meta)) {
            return Err(Refusal::Changed);
        }
        if !same_contents(&self.file, &self.bytes).map_err(io("check"))? {
            return Err(Refusal::Changed);
        }
        Ok(())
    }
}

/// Whether `file` (read from its start) holds exactly `bytes`.
fn same_contents(file: &File, bytes: &[u8]) -> io::Result<bool> {
    let mut buffer = vec![0u8; 64 * 1024];
    let mut at = 0usize;
    loop {
        let n = file.read_at(&mut buffer, at as u64)?;
        if n == 0 {
            return Ok(at == bytes.len());
        }
        let (Some(read), Some(expected)) = (buffer.get(..n), bytes.get(at..at + n)) else {
            return Ok(false);
        };
        if read != expected {
            return Ok(false);
        }
        at += n;
    }
}

/// Creates `.pcl-fmt-PID-N.tmp` in `dir` exclusively, with `mode`.
fn create_temp(dir: &OwnedFd, mode: u32) -> Result<(OsString, OwnedFd), Refusal> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let pid = std::process::id();
    let mut tries = 0;
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = OsString::from(format!(".pcl-fmt-{pid}-{n}.tmp"));
        match rustix::fs::openat(
            dir,
            &name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        ) {
            Ok(fd) => return Ok((name, fd)),
            Err(rustix::io::Errno::EXIST) if tries < 100 => tries += 1,
            Err(err) => return Err(Refusal::Io("create a temporary file", err.into())),
        }
    }
}

/// A file whose new text is ready: in a temporary file, or (`temp` `None`)
/// to be written in place.
#[derive(Debug)]
pub struct Staged {
    opened: Opened,
    /// The new text, for an in-place write.
    new: Vec<u8>,
    temp: Option<(OsString, File)>,
}

impl Staged {
    /// Step 3: the temporary file's contents to disk.
    pub fn sync(&self) -> io::Result<()> {
        match &self.temp {
            Some((_, temp)) => temp.sync_all(),
            None => Ok(()),
        }
    }

    /// [`Opened::test_hook`] at `stage`.
    pub fn test_hook(&self, stage: &str) {
        let temp = self.temp.as_ref().map(|(name, _)| name.as_os_str());
        self.opened.test_hook(stage, temp);
    }

    /// Gives up: removes the temporary file.
    pub fn abandon(self) {
        if let Some((temp_name, temp)) = self.temp {
            drop(temp);
            let _ = rustix::fs::unlinkat(&self.opened.dir, &temp_name, AtFlags::empty());
        }
    }

    /// Step 4: checks that the file is unchanged, then replaces it. Returns
    /// the directory to sync (after a rename), or `None` after an in-place
    /// write (already synced).
    pub fn commit(self) -> Result<Option<OwnedFd>, Refusal> {
        let Staged { opened, new, temp } = self;
        match temp {
            Some((temp_name, temp)) => {
                drop(temp);
                if let Err(err) = opened.verify() {
                    let _ = rustix::fs::unlinkat(&opened.dir, &temp_name, AtFlags::empty());
                    return Err(err);
                }
                if let Err(err) =
                    rustix::fs::renameat(&opened.dir, &temp_name, &opened.dir, &opened.name)
                {
                    let _ = rustix::fs::unlinkat(&opened.dir, &temp_name, AtFlags::empty());
                    return Err(Refusal::Io("replace it", err.into()));
                }
                Ok(Some(opened.dir))
            }
            None => {
                opened.verify()?;
                let fd = match rustix::fs::openat(
                    &opened.dir,
                    &opened.name,
                    OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
                    Mode::empty(),
                ) {
                    Ok(fd) => fd,
                    Err(rustix::io::Errno::LOOP) => return Err(Refusal::Changed),
                    Err(err) => return Err(Refusal::Io("write", err.into())),
                };
                let file = File::from(fd);
                let meta = file.metadata().map_err(io("write"))?;
                if !opened.identity.same_version(&Identity::of(&meta)) {
                    return Err(Refusal::Changed);
                }
                file.write_all_at(&new, 0).map_err(io("write"))?;
                file.set_len(new.len() as u64).map_err(io("write"))?;
                file.sync_all().map_err(io("write"))?;
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pcl-replace-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn leftovers(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .contains("pcl-fmt")
            })
            .count()
    }

    /// Each way the file can change between the read and the replacement
    /// (between each stage) is caught, and the change is kept.
    #[test]
    fn a_change_between_the_stages_is_caught_and_kept() {
        type Change = fn(&Path);
        let changes: [(&str, Change); 4] = [
            ("rewritten", |p| std::fs::write(p, "edited = 1\n").unwrap()),
            ("same size", |p| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(p)
                    .unwrap()
                    .write_all_at(b"b", 0)
                    .unwrap()
            }),
            ("renamed over", |p| {
                let new = p.with_extension("new");
                std::fs::write(&new, "a=1\n").unwrap();
                std::fs::rename(new, p).unwrap();
            }),
            ("link swapped in", |p| {
                std::fs::rename(p, p.with_extension("old")).unwrap();
                std::os::unix::fs::symlink("/dev/null", p).unwrap();
            }),
        ];
        for (what, change) in changes {
            for after_stage in [false, true] {
                let dir = scratch("change");
                let path = dir.join("a.pp");
                std::fs::write(&path, "a=1\n").unwrap();
                let opened = Opened::open(&path, None).unwrap();
                assert_eq!(opened.bytes(), b"a=1\n");
                if !after_stage {
                    change(&path);
                }
                let staged = opened.stage(b"a = 1\n").unwrap();
                if after_stage {
                    change(&path);
                }
                staged.sync().unwrap();
                let before = std::fs::symlink_metadata(&path).unwrap();
                let result = staged.commit();
                assert!(
                    matches!(result, Err(Refusal::Changed)),
                    "{what}: {result:?}"
                );
                let after = std::fs::symlink_metadata(&path).unwrap();
                assert_eq!(
                    (before.ino(), before.mtime_nsec()),
                    (after.ino(), after.mtime_nsec()),
                    "{what}: touched"
                );
                assert_eq!(leftovers(&dir), 0, "{what}");
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }

    #[test]
    fn an_unchanged_file_is_replaced_with_its_mode() {
        let dir = scratch("unchanged");
        let path = dir.join("a.pp");
        std::fs::write(&path, "a=1\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let staged = Opened::open(&path, None)
            .unwrap()
            .stage(b"a = 1\n")
            .unwrap();
        staged.sync().unwrap();
        let dir_fd = staged.commit().unwrap();
        assert!(dir_fd.is_some(), "renamed");
        assert_eq!(std::fs::read(&path).unwrap(), b"a = 1\n");
        let mode = std::fs::metadata(&path).unwrap().mode();
        assert_eq!(mode & 0o7777, 0o640);
        assert_eq!(leftovers(&dir), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The temporary file has the original's permission bits from its
    /// creation (never the default 0666 less the umask).
    #[test]
    fn the_temporary_file_is_created_with_the_originals_mode() {
        let dir = scratch("temp-mode");
        let fd = rustix::fs::openat(CWD, &dir, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty())
            .unwrap();
        let (name, temp) = create_temp(&fd, 0o600).unwrap();
        assert!(name.len() < 40, "{name:?}");
        let mode = rustix::fs::fstat(&temp).unwrap().st_mode;
        assert_eq!(mode & 0o777, 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_with_hard_links_is_written_in_place() {
        let dir = scratch("links");
        let path = dir.join("a.pp");
        std::fs::write(&path, "a=1\n").unwrap();
        std::fs::hard_link(&path, dir.join("b.pp")).unwrap();
        let ino = std::fs::metadata(&path).unwrap().ino();
        let staged = Opened::open(&path, None)
            .unwrap()
            .stage(b"a = 1\n")
            .unwrap();
        assert!(staged.temp.is_none(), "in place");
        assert!(staged.commit().unwrap().is_none());
        let meta = std::fs::metadata(dir.join("b.pp")).unwrap();
        assert_eq!((meta.ino(), meta.nlink()), (ino, 2));
        assert_eq!(std::fs::read(dir.join("b.pp")).unwrap(), b"a = 1\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_read_only_file_is_refused() {
        let dir = scratch("read-only");
        let path = dir.join("a.pp");
        std::fs::write(&path, "a=1\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let result = Opened::open(&path, None).unwrap().stage(b"a = 1\n");
        assert!(matches!(result, Err(Refusal::ReadOnly)), "{result:?}");
        assert_eq!(leftovers(&dir), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_final_symbolic_link_is_not_opened() {
        let dir = scratch("final-link");
        std::fs::write(dir.join("real.pp"), "a=1\n").unwrap();
        std::os::unix::fs::symlink("real.pp", dir.join("link.pp")).unwrap();
        let result = Opened::open(&dir.join("link.pp"), None);
        assert!(matches!(result, Err(Refusal::Changed)), "{result:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A directory of the path swapped (for a link elsewhere) after the
    /// caller checked it: refused before anything is read.
    #[test]
    fn a_directory_swapped_since_it_was_checked_is_refused() {
        let dir = scratch("dir-swap");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("sub/a.pp"), "a=1\n").unwrap();
        std::fs::write(dir.join("outside/a.pp"), "a=1\n").unwrap();
        let meta = std::fs::metadata(dir.join("sub")).unwrap();
        let checked = Some((meta.dev(), meta.ino()));
        std::fs::rename(dir.join("sub"), dir.join("sub.old")).unwrap();
        std::os::unix::fs::symlink("outside", dir.join("sub")).unwrap();
        let result = Opened::open(&dir.join("sub/a.pp"), checked);
        assert!(matches!(result, Err(Refusal::Changed)), "{result:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
