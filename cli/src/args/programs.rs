//! Each replayed program's flags, one struct per program module of the
//! library, each converted into that module's `Settings` (whose fields are
//! the manifests' keys). Which program reads which flag is the library's
//! registry (`nlorder::replay::method::readers`), not these structs.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;
use nlorder::replay::{calico, cilium, flannel, k3s, kube_apiserver, kubeadm, kubelet};

/// calico-node's flags (besides `--method`).
#[derive(Debug, Clone, Args)]
pub struct CalicoArgs {
    /// Calico release whose behaviour to replay (exclude list, bugs), e.g. 3.22.1;
    /// a later release than any nlorder knows is replayed as the newest it knows, with a warning.
    #[arg(long, default_value = "latest")]
    pub calico_version: calico::Version,
    /// The Node's InternalIP (kubernetes-internal-ip), repeatable, in status order;
    /// `NODE=IP` gives it for one node of several captures.
    #[arg(long, value_name = "[NODE=]IP")]
    pub node_internal_ip: Vec<calico::NodeInternalIp>,
    /// calico-node's IP (or IP6) setting: autodetect, none, or ADDR[/LEN].
    #[arg(long, default_value = "autodetect")]
    pub ip: calico::IpSetting,
    /// A BGP peer: say whether the kernel would reach it from the chosen address. Repeatable.
    #[arg(long)]
    pub bgp_peer: Vec<IpAddr>,
}

impl From<CalicoArgs> for calico::Settings {
    fn from(a: CalicoArgs) -> Self {
        calico::Settings {
            calico_version: a.calico_version,
            node_internal_ip: a.node_internal_ip,
            ip: a.ip,
            bgp_peer: a.bgp_peer,
        }
    }
}

/// kubelet's flags (`--node-ip` is k3s's too, `--resolved` calico-node's can-reach=NAME's).
#[derive(Debug, Clone, Args)]
pub struct KubeletArgs {
    /// kubelet --node-ip (one, or two comma-separated for dual stack).
    #[arg(long, value_delimiter = ',')]
    pub node_ip: Vec<IpAddr>,
    /// kubelet --hostname-override.
    #[arg(long)]
    pub hostname_override: Option<String>,
    /// What the node name (kubelet) or can-reach=NAME (calico-node) resolved to, in resolver order
    /// (repeatable); none: the lookup returned nothing.
    #[arg(long, value_name = "ADDR|none")]
    pub resolved: Vec<nlorder::replay::options::Resolved>,
    /// kubelet: look the node name (--hostname-override, else the capture's NODE name) up in this
    /// hosts file and sort the answers as glibc's getaddrinfo does on the captured host.
    #[arg(long, value_name = "FILE", conflicts_with = "resolved")]
    pub hosts: Option<PathBuf>,
    /// With --hosts: the host's /etc/host.conf (`multi on` returns every line naming the name).
    #[arg(long, value_name = "FILE", requires = "hosts")]
    pub host_conf: Option<PathBuf>,
}

impl From<KubeletArgs> for kubelet::Settings {
    fn from(a: KubeletArgs) -> Self {
        kubelet::Settings {
            node_ip: a.node_ip,
            hostname_override: a.hostname_override,
            resolved: a.resolved,
            hosts: a.hosts,
            host_conf: a.host_conf,
        }
    }
}

/// flanneld's flags.
#[derive(Debug, Clone, Args)]
pub struct FlannelArgs {
    /// flannel --iface (name or IP), repeatable.
    #[arg(long)]
    pub iface: Vec<String>,
    /// flannel --iface-regex, repeatable.
    #[arg(long)]
    pub iface_regex: Vec<String>,
    /// flannel --iface-can-reach.
    #[arg(long)]
    pub iface_can_reach: Option<IpAddr>,
    /// flannel --public-ip.
    #[arg(long)]
    pub public_ip: Option<IpAddr>,
    /// flannel release whose address sort to replay (flannel, k3s-flannel): before 0.28.0 an
    /// interface's addresses are taken in dump order (global before link-local).
    #[arg(long, default_value = "0.28.0", value_name = "X.Y.Z")]
    pub flannel_version: calico::Version,
}

impl From<FlannelArgs> for flannel::Settings {
    fn from(a: FlannelArgs) -> Self {
        flannel::Settings {
            iface: a.iface,
            iface_regex: a.iface_regex,
            iface_can_reach: a.iface_can_reach,
            public_ip: a.public_ip,
            flannel_version: a.flannel_version,
        }
    }
}

/// kubeadm's flags (kube-apiserver's `--advertise-address` too).
#[derive(Debug, Clone, Args)]
pub struct KubeadmArgs {
    /// kubeadm --apiserver-advertise-address: `::` prefers IPv6, a loopback address
    /// selects a global address on lo, any other is used as given. kube-apiserver
    /// --advertise-address: any but `0.0.0.0` and `::` is used as given.
    #[arg(long)]
    pub advertise_address: Option<IpAddr>,
}

impl From<KubeadmArgs> for kubeadm::Settings {
    fn from(a: KubeadmArgs) -> Self {
        kubeadm::Settings {
            advertise_address: a.advertise_address,
        }
    }
}

/// kube-apiserver's flags (besides `--advertise-address`).
#[derive(Debug, Clone, Args)]
pub struct KubeApiserverArgs {
    /// kube-apiserver --bind-address (default 0.0.0.0): a specific address is advertised as
    /// given; 0.0.0.0, :: or a loopback address: the default-route interface (IPv6 first for ::).
    #[arg(long)]
    pub bind_address: Option<IpAddr>,
}

impl From<KubeApiserverArgs> for kube_apiserver::Settings {
    fn from(a: KubeApiserverArgs) -> Self {
        kube_apiserver::Settings {
            bind_address: a.bind_address,
        }
    }
}

/// k3s's flags (besides kubelet's `--node-ip`).
#[derive(Debug, Clone, Args)]
pub struct K3sArgs {
    /// k3s --flannel-iface (k3s, k3s-flannel).
    #[arg(long, value_name = "IFACE")]
    pub flannel_iface: Option<String>,
}

impl From<K3sArgs> for k3s::Settings {
    fn from(a: K3sArgs) -> Self {
        k3s::Settings {
            flannel_iface: a.flannel_iface,
        }
    }
}

/// Cilium's flags (node IP, NodePort, masquerade).
#[derive(Debug, Clone, Args)]
pub struct CiliumArgs {
    /// Cilium's devices (its `devices` setting): the node-IP fallback walks the first one's addresses only;
    /// NodePort and masquerade take the devices named (comma-separated, `eth+` a prefix).
    #[arg(long, value_name = "DEV[,DEV]")]
    pub cilium_device: Option<String>,
    /// Cilium release to replay: the node-IP fallback takes the lowest address and counts
    /// secondaries before 1.14, the lowest link index without secondaries from 1.14, stops
    /// excluding down dummy links in 1.17 and skips tentative addresses from 1.20; NodePort and
    /// masquerade follow 1.15, or the code after it.
    #[arg(long, default_value = "1.20", value_name = "X.Y")]
    pub cilium_version: calico::Version,
}

impl From<CiliumArgs> for cilium::Settings {
    fn from(a: CiliumArgs) -> Self {
        cilium::Settings {
            cilium_device: a.cilium_device,
            cilium_version: a.cilium_version,
        }
    }
}
