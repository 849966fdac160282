//! Whose build a kernel release is, from the release text the capture's
//! `shb_os` names (`uname -r`), and the build options that follow from it.
//!
//! Contract: only release texts a distribution's packaging writes are
//! recognised (`6.1.0-18-amd64` Debian, `6.12.117+deb12-amd64` Debian,
//! `6.8.0-52-generic` Ubuntu, `5.14.0-284.el9.x86_64` Red Hat,
//! `6.1.141-165.249.amzn2023.x86_64` Amazon Linux, `6.5.6-300.fc39.x86_64`
//! Fedora, `5.3.18-59.24-default` SUSE); anything else is `None`, and the
//! options' defaults hold. `CONFIG_IPV6_MIP6` per distribution, read from
//! their kernel configurations: `=y` in Debian's and Fedora's, `=m` in
//! Ubuntu's (generic and cloud flavours), Red Hat's (RHEL 8 to 10, CentOS
//! Stream), Amazon Linux 2 and 2023, and SUSE's.

use regex::Regex;
use std::sync::LazyLock;

/// A distribution whose kernel build a release text names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelBuild {
    /// `N.N.N-N-amd64`, `N.N.N+debNN-amd64` (and other architectures and
    /// flavours: `-cloud-amd64`, `-arm64`).
    Debian,
    /// `…fcNN.x86_64`.
    Fedora,
    /// `N.N.N-N-generic` and Ubuntu's cloud flavours (`-aws`, `-azure`,
    /// `-gcp`, `-kvm`, `-lowlatency`, `-oracle`, `-ibm`).
    Ubuntu,
    /// `…elN…` (RHEL, CentOS Stream and their rebuilds).
    RedHat,
    /// `…amzn2…` (Amazon Linux 2 and 2023).
    AmazonLinux,
    /// `…-default` (SUSE).
    Suse,
}

static PATTERNS: LazyLock<Vec<(Regex, KernelBuild)>> = LazyLock::new(|| {
    [
        (r"\.fc\d+\.", KernelBuild::Fedora),
        (r"\.el\d+(_\d+)?[.\w]*$", KernelBuild::RedHat),
        (r"\.amzn\d+\.", KernelBuild::AmazonLinux),
        (
            r"-(generic|aws|azure|gcp|gke|kvm|lowlatency|oracle|ibm)(-\S+)?$",
            KernelBuild::Ubuntu,
        ),
        (
            r"(\+deb\d+|^\d+\.\d+\.\d+-\d+)(-cloud|-rt)?-(amd64|arm64|686|686-pae|armmp|ppc64el|s390x)$",
            KernelBuild::Debian,
        ),
        (r"-default$", KernelBuild::Suse),
    ]
    .into_iter()
    .filter_map(|(p, b)| Regex::new(p).ok().map(|r| (r, b)))
    .collect()
});

impl KernelBuild {
    /// The distribution whose packaging writes `release` (`uname -r`, or
    /// `shb_os`'s `Linux 6.1.0-18-amd64`), if one is recognised.
    pub fn of_release(release: &str) -> Option<KernelBuild> {
        let release = release.trim();
        let release = release.strip_prefix("Linux ").unwrap_or(release);
        let release = release.split_whitespace().next()?;
        PATTERNS.iter().find(|(r, _)| r.is_match(release)).map(|(_, b)| *b)
    }

    /// Whether its kernels are built with `CONFIG_IPV6_MIP6=y` (source
    /// selection's rule 4 compiled in); `=m` leaves the rule out.
    pub fn ipv6_mip6(self) -> bool {
        matches!(self, KernelBuild::Debian | KernelBuild::Fedora)
    }
}

#[cfg(test)]
mod tests {
    use super::KernelBuild::{self, *};

    #[test]
    fn releases_name_their_distribution() {
        let cases: [(&str, Option<KernelBuild>); 12] = [
            ("Linux 6.1.0-50-amd64", Some(Debian)),
            ("Linux 6.12.117+deb12-amd64", Some(Debian)),
            ("6.1.0-18-cloud-amd64", Some(Debian)),
            ("6.8.0-52-generic", Some(Ubuntu)),
            ("6.8.0-1021-aws", Some(Ubuntu)),
            ("5.14.0-284.11.1.el9_2.x86_64", Some(RedHat)),
            ("4.18.0-553.el8_10.x86_64", Some(RedHat)),
            ("6.1.141-165.249.amzn2023.x86_64", Some(AmazonLinux)),
            ("5.10.75-79.358.amzn2.x86_64", Some(AmazonLinux)),
            ("6.5.6-300.fc39.x86_64", Some(Fedora)),
            ("5.3.18-59.24-default", Some(Suse)),
            // a self-built kernel names no distribution
            ("Linux 6.18.44-fc-v669", None),
        ];
        for (release, want) in cases {
            assert_eq!(KernelBuild::of_release(release), want, "{release}");
        }
    }

    #[test]
    fn only_debian_and_fedora_build_the_home_address_rule_in() {
        assert!(Debian.ipv6_mip6() && Fedora.ipv6_mip6());
        assert!(![Ubuntu, RedHat, AmazonLinux, Suse].iter().any(|b| b.ipv6_mip6()));
    }
}
