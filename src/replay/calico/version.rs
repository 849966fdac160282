//! calico-node's releases: which one a replay stands for.
//!
//! Contract: a leaf; [`Version`] orders releases and names the one whose
//! behaviour is replayed for a release asked for (a later one than any
//! nlorder knows is replayed as [`Version::LATEST`]). What each release
//! changed is [`crate::replay::calico`]'s.

use std::str::FromStr;

/// A calico-node release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32, pub u32);

impl Version {
    /// The newest release whose behaviour is replayed here.
    pub const LATEST: Version = Version(3, 32, 1);

    /// The release whose behaviour is replayed for this one: itself, or
    /// [`Version::LATEST`] for a later release nlorder does not know.
    pub fn replayed(self) -> Version {
        self.min(Version::LATEST)
    }

    /// Whether this is a release later than any nlorder knows (replayed as
    /// [`Version::LATEST`]).
    pub fn is_unknown(self) -> bool {
        self > Version::LATEST
    }
}

impl FromStr for Version {
    type Err = crate::bad_value::BadValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "latest" {
            return Ok(Version::LATEST);
        }
        let t = s.trim_start_matches('v');
        let parts: Vec<&str> = t.split('.').collect();
        let bad = || crate::bad_value::BadValue::new(s, "not a version like 3.22.1");
        let num = |i: usize| parts.get(i).map_or(Ok(0), |p| p.parse::<u32>().map_err(|_| bad()));
        if parts.is_empty() || parts.len() > 3 {
            return Err(bad());
        }
        Ok(Version(num(0)?, num(1)?, num(2)?))
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}.{}.{}", self.0, self.1, self.2)
    }
}
