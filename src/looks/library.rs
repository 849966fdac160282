//! The libraries a request's shape may point to, and how surely it does.

use serde::Serialize;

/// The program or library a request's shape points to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Library {
    /// Go's `net.Interfaces()` / `Addrs()` / `InterfaceAddrs()`
    /// (`syscall.NetlinkRIB`): a 1-byte `rtgenmsg`, seq 1.
    GoNet,
    /// vishvananda/netlink (Calico's bulk address list, flannel): full
    /// family header, small counting sequence numbers.
    GoVishvananda,
    /// glibc `getaddrinfo`'s `__check_pf`: one RTM_GETADDR, 20 bytes, seq =
    /// the Unix time.
    GlibcGetaddrinfo,
    /// glibc `getaddrinfo`'s `__check_native`: an RTM_GETLINK right after
    /// its `__check_pf`.
    GlibcCheckNative,
    /// glibc `getifaddrs()`: RTM_GETLINK then RTM_GETADDR, 20 bytes each,
    /// seq T then T+1 on one socket.
    GlibcGetifaddrs,
    /// iproute2 (`ip addr`, `ip link`, `ip route`): full family header,
    /// seq = the Unix time plus a count.
    Iproute2,
    /// systemd's sd-netlink (nss-myhostname, networkd): full header, ACK asked.
    SystemdNetlink,
    /// `nlorder record` itself: the section that holds the request was
    /// written by it (`shb_userappl`), and it records only its own socket's
    /// requests and the notifications. The recorder, not a node program.
    NlorderRecord,
    /// No known library sends a request of that shape.
    Unknown,
}

impl Library {
    /// Every library, in the order `nlorder -G values` lists them.
    pub const ALL: &'static [Library] = &[
        Library::GoNet,
        Library::GoVishvananda,
        Library::GlibcGetaddrinfo,
        Library::GlibcCheckNative,
        Library::GlibcGetifaddrs,
        Library::Iproute2,
        Library::SystemdNetlink,
        Library::NlorderRecord,
        Library::Unknown,
    ];

    /// The library's identifier, as JSON spells it (`go-net`, ...) and
    /// filters compare it.
    pub fn id(self) -> &'static str {
        match self {
            Library::GoNet => "go-net",
            Library::GoVishvananda => "go-vishvananda",
            Library::GlibcGetaddrinfo => "glibc-getaddrinfo",
            Library::GlibcCheckNative => "glibc-check-native",
            Library::GlibcGetifaddrs => "glibc-getifaddrs",
            Library::Iproute2 => "iproute2",
            Library::SystemdNetlink => "systemd-netlink",
            Library::NlorderRecord => "nlorder-record",
            Library::Unknown => "unknown",
        }
    }

    /// The library's name as `who` prints it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Library::GoNet => "Go net (net.Interfaces / Addrs)",
            Library::GoVishvananda => "Go vishvananda/netlink",
            Library::GlibcGetaddrinfo => "glibc getaddrinfo (__check_pf)",
            Library::GlibcCheckNative => "glibc getaddrinfo (__check_native)",
            Library::GlibcGetifaddrs => "glibc getifaddrs",
            Library::Iproute2 => "iproute2",
            Library::SystemdNetlink => "systemd sd-netlink",
            Library::NlorderRecord => "nlorder record (the recorder, not a node program)",
            Library::Unknown => "unknown",
        }
    }

    /// Go programs (Calico, kubelet, flannel, Go's resolver).
    pub fn is_go(self) -> bool {
        matches!(self, Library::GoNet | Library::GoVishvananda)
    }

    /// The recorder's own requests: no program of the node looked.
    pub fn is_recorder(self) -> bool {
        self == Library::NlorderRecord
    }

    /// glibc's getaddrinfo (getent, Python, Go with cgo, most C programs).
    pub fn is_glibc_getaddrinfo(self) -> bool {
        matches!(self, Library::GlibcGetaddrinfo | Library::GlibcCheckNative)
    }
}

/// How surely a request's shape names its library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// A guess, or no library at all.
    Unknown,
    /// The shape fits the library, but another could send it too.
    Likely,
    /// Only that library sends this shape.
    Certain,
}

impl Confidence {
    /// The word `who` prints.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Confidence::Certain => "certain",
            Confidence::Likely => "likely",
            Confidence::Unknown => "unknown",
        }
    }
}
