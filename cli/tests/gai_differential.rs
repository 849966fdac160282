//! Differential test against the real glibc: in network namespaces this
//! test creates, generated hosts (primaries, secondaries with labels, a
//! promoted alias, several subnets, IPv6 global and deprecated or no IPv6
//! at all, default routes with and without `src`) are recorded, a hosts
//! file names several of their addresses and some remote ones, and glibc's
//! `getaddrinfo` (through python3, with Go's cgo hints) must return exactly
//! the order nlorder predicts from the capture; Go's pure resolver (a
//! CGO_ENABLED=0 binary) must return what nlorder predicts for Go. UDP
//! connect() sends no packet: nothing leaves the namespace.
// Tests fail by panicking: unwrap, expect and indexing are how they say what broke.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::net::IpAddr;
use std::path::Path;

use common::Netns;
use nlorder::model::Model;
use nlorder::replay::gai;

/// A small deterministic generator (no dependency, reproducible cases).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

const GETADDRINFO: &str = r#"import socket, sys
seen = []
for a in socket.getaddrinfo(sys.argv[1], None, 0, socket.SOCK_STREAM, 0,
                            socket.AI_CANONNAME | socket.AI_V4MAPPED | socket.AI_ALL):
    ip = a[4][0].split('%')[0]
    if not seen or seen[-1] != ip:
        seen.append(ip)
print(' '.join(seen))
"#;

struct Case {
    setup: Vec<String>,
    hosts: Vec<String>,
    description: String,
}

/// `ip addr add SPEC` (SPEC: `ADDRESS/LEN dev ...`) into `setup`, and the
/// address into `locals`, the host's own.
fn add_address(setup: &mut Vec<String>, locals: &mut Vec<String>, spec: &str) {
    setup.push(format!("ip addr add {spec}"));
    locals.push(spec.split('/').next().unwrap_or(spec).to_owned());
}

fn generate(rng: &mut Lcg) -> Case {
    let mut setup = vec![
        "ip link set lo up".to_string(),
        "sysctl -qw net.ipv4.conf.all.promote_secondaries=1".into(),
        "sysctl -qw net.ipv4.conf.default.promote_secondaries=1".into(),
        "ip link add eth0 type veth peer name veth-eth0".into(),
        "ip link add eth1 type veth peer name veth-eth1".into(),
    ];
    let v6 = rng.chance(60);
    if !v6 {
        for l in ["all", "default", "lo"] {
            setup.push(format!("sysctl -qw net.ipv6.conf.{l}.disable_ipv6=1"));
        }
    }
    for l in ["eth0", "veth-eth0", "eth1", "veth-eth1"] {
        setup.push(format!("ip link set {l} up"));
    }
    let mut locals: Vec<String> = Vec::new();
    let mut desc = vec![format!("ipv6={v6}")];
    add_address(&mut setup, &mut locals, "172.18.45.2/24 dev eth0");
    if rng.chance(70) {
        let label = if rng.chance(50) { " label eth0:100" } else { "" };
        add_address(&mut setup, &mut locals, &format!("172.18.45.100/24{label} dev eth0"));
        desc.push("secondary .100".into());
        if rng.chance(40) {
            // the alias becomes primary: delete and re-add the first address
            setup.push("ip addr del 172.18.45.2/24 dev eth0".into());
            setup.push("ip addr add 172.18.45.2/24 dev eth0".into());
            desc.push("promoted".into());
        }
    }
    if rng.chance(50) {
        add_address(&mut setup, &mut locals, "10.9.9.9/32 dev eth0");
    }
    if rng.chance(50) {
        add_address(&mut setup, &mut locals, "192.168.7.1/24 dev eth1");
    }
    if rng.chance(50) {
        let src = if rng.chance(50) && locals.contains(&"172.18.45.100".to_string()) {
            " src 172.18.45.100"
        } else {
            ""
        };
        setup.push(format!("ip route add default via 172.18.45.1 dev eth0{src}"));
        desc.push(format!("default route{src}"));
    }
    if v6 {
        add_address(&mut setup, &mut locals, "2001:db8::5/64 dev eth0 nodad");
        if rng.chance(50) {
            add_address(&mut setup, &mut locals, "2001:db8::6/64 dev eth0 nodad preferred_lft 0");
            desc.push("deprecated ::6".into());
        }
        if rng.chance(50) {
            add_address(&mut setup, &mut locals, "fd00:7::1/64 dev eth1 nodad");
        }
        if rng.chance(40) {
            setup.push("ip -6 route add default via 2001:db8::1 dev eth0".into());
        }
    }
    let mut remote: Vec<String> = vec![
        "172.18.45.200".into(),
        "172.18.45.7".into(),
        "10.0.0.1".into(),
        "172.18.46.3".into(),
    ];
    if v6 {
        remote.push("2001:db8::99".into());
        remote.push("2001:db9::1".into());
    }
    let mut hosts: Vec<String> = Vec::new();
    for a in locals.iter().chain(remote.iter()) {
        if rng.chance(65) {
            hosts.push(a.clone());
        }
    }
    if hosts.len() < 2 {
        hosts = locals.iter().take(2).cloned().collect();
        if hosts.len() < 2 {
            hosts.push("172.18.45.200".into());
        }
    }
    rng.shuffle(&mut hosts);
    Case {
        setup,
        hosts,
        description: desc.join(", "),
    }
}

/// `Ok(true)` when glibc returned another order than the hosts file's. With
/// `go` (a CGO_ENABLED=0 binary) and `musl` (a static musl binary), those
/// resolvers are compared too.
fn run_case(n: usize, case: &Case, go: Option<&Path>, musl: Option<&Path>) -> Result<bool, String> {
    let ns = Netns::new(&format!("gai{n}"));
    let etc = Path::new("/etc/netns").join(&ns.0);
    std::fs::create_dir_all(&etc).map_err(|e| e.to_string())?;
    let _cleanup = EtcNetns(etc.clone());
    let hosts: String = case.hosts.iter().map(|a| format!("{a} node1\n")).collect();
    std::fs::write(etc.join("hosts"), format!("127.0.0.1 localhost\n{hosts}")).map_err(|e| e.to_string())?;
    std::fs::write(etc.join("nsswitch.conf"), "hosts: files\n").map_err(|e| e.to_string())?;
    for line in &case.setup {
        let args: Vec<&str> = line.split_whitespace().collect();
        let out = ns.exec(&args);
        if !out.status.success() {
            return Err(format!("{line}: {}", String::from_utf8_lossy(&out.stderr)));
        }
    }
    let cap = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gai-differential/case{n}.pcap"));
    std::fs::create_dir_all(cap.parent().expect("dir")).map_err(|e| e.to_string())?;
    ns.record(&cap)?;
    let out = ns.exec(&["python3", "-c", GETADDRINFO, "node1"]);
    if !out.status.success() {
        return Err(format!("getaddrinfo: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let glibc: Vec<IpAddr> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|a| a.parse().expect("address from glibc"))
        .collect();
    let model = common::rebuild_file(&cap);
    let input: Vec<IpAddr> = case.hosts.iter().map(|a| a.parse().expect("ip")).collect();
    let predicted = gai::sort(&model, &input, &gai::Options::default());
    if predicted.order != glibc {
        return Err(format!(
            "case {n} ({}): hosts {:?}\n  glibc:   {glibc:?}\n  nlorder: {:?}\n  steps: {:#?}\n  sources: {:#?}",
            case.description, case.hosts, predicted.order, predicted.steps, predicted.candidates
        ));
    }
    if let Some(go) = go {
        let out = ns.exec(&[go.to_str().expect("go"), "lookup", "node1"]);
        if !out.status.success() {
            return Err(format!("go lookup: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let theirs: Vec<IpAddr> = serde_json::from_slice::<Vec<String>>(&out.stdout)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|a| a.parse().expect("address from Go"))
            .collect();
        same_as(gai::Resolver::Go, &theirs, &model, &input)
            .map_err(|e| format!("case {n} ({}): {e}", case.description))?;
    }
    if let Some(musl) = musl {
        let out = ns.exec(&[musl.to_str().expect("musl"), "node1"]);
        if !out.status.success() {
            return Err(format!(
                "musl getaddrinfo failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let mut theirs: Vec<IpAddr> = Vec::new();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let ip: IpAddr = line.trim().parse().map_err(|_| format!("musl printed {line:?}"))?;
            if theirs.last() != Some(&ip) {
                theirs.push(ip);
            }
        }
        same_as(gai::Resolver::Musl, &theirs, &model, &input)
            .map_err(|e| format!("case {n} ({}): {e}", case.description))?;
    }
    Ok(glibc != input)
}

/// Whether nlorder's replay of `resolver` sorts `input` as the resolver
/// itself did (`theirs`); what each said when not.
fn same_as(resolver: gai::Resolver, theirs: &[IpAddr], model: &Model, input: &[IpAddr]) -> Result<(), String> {
    let opts = gai::Options {
        resolver,
        ..gai::Options::default()
    };
    let ours = gai::sort(model, input, &opts);
    if ours.order == theirs {
        return Ok(());
    }
    Err(format!(
        "{resolver:?}: hosts {input:?}\n  theirs:  {theirs:?}\n  nlorder: {:?}\n  steps: {:#?}",
        ours.order, ours.steps
    ))
}

/// Removes /etc/netns/NS when dropped.
struct EtcNetns(std::path::PathBuf);

impl Drop for EtcNetns {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn glibc_getaddrinfo_order_matches_prediction() {
    if !common::can_run_netns(&[]) {
        return;
    }
    let cases: usize = std::env::var("NLORDER_GAI_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    let go = if common::have("go", &["version"]) {
        Some(common::go_binary())
    } else {
        assert!(std::env::var("CI").is_err(), "CI must compare with Go's resolver too");
        eprintln!("SKIPPED (part): go is not installed; Go's resolver is not compared");
        None
    };
    let musl = if common::have("musl-gcc", &["--version"]) {
        Some(common::musl_binary())
    } else {
        assert!(
            std::env::var("CI").is_err(),
            "CI must compare with musl too (.ci/run installs musl-tools)"
        );
        eprintln!("SKIPPED (part): musl-gcc is not installed; musl is not compared");
        None
    };
    let mut rng = Lcg(0x006e_6c6f_7264_6572);
    let mut failures = Vec::new();
    let mut reordered = 0;
    for n in 0..cases {
        let case = generate(&mut rng);
        match run_case(n, &case, go.as_deref(), musl.as_deref()) {
            Ok(changed) => reordered += usize::from(changed),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Most cases must really be reordered by glibc, or the comparison proves little.
    assert!(
        reordered * 2 > cases,
        "glibc reordered only {reordered} of {cases} cases"
    );
    eprintln!(
        "glibc{} agreed on {cases} generated cases; glibc reordered {reordered}",
        match (go.is_some(), musl.is_some()) {
            (true, true) => ", Go and musl",
            (true, false) => " and Go",
            (false, true) => " and musl",
            (false, false) => "",
        }
    );
}
