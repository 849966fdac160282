use super::*;

/// The shape of Calico's quick-start `custom-resources.yaml`: an
/// Installation and an APIServer in one file.
const QUICKSTART: &str = "\
# This section includes base Calico installation configuration.
apiVersion: operator.tigera.io/v1
kind: Installation
metadata:
  name: default
spec:
  calicoNetwork:
    ipPools:
    - name: default-ipv4-ippool
      blockSize: 26
      cidr: 192.168.0.0/16
      encapsulation: VXLANCrossSubnet
      natOutgoing: Enabled
      nodeSelector: all()
---
apiVersion: operator.tigera.io/v1
kind: APIServer
metadata:
  name: default
spec: {}
";

#[test]
fn the_quickstart_file_defaults_to_first_found() {
    let (m, why) = method(QUICKSTART, Family::V4).expect("ok").expect("a method");
    assert_eq!(m, "first-found");
    assert!(why.contains("operator's default"), "{why}");
    // no IPv6 pool: the operator sets IP6=none
    assert_eq!(method(QUICKSTART, Family::V6).expect("ok"), None);
}

#[test]
fn platform_defaults() {
    let eks = QUICKSTART.replace(
        "spec:\n  calicoNetwork:",
        "spec:\n  kubernetesProvider: EKS\n  calicoNetwork:",
    );
    let (m, why) = method(&eks, Family::V4).expect("ok").expect("a method");
    assert_eq!(m, "can-reach=8.8.8.8");
    assert!(why.contains("EKS"), "{why}");
    let ee = QUICKSTART.replace(
        "spec:\n  calicoNetwork:",
        "spec:\n  kubernetesProvider: DockerEnterprise\n  calicoNetwork:",
    );
    assert_eq!(
        method(&ee, Family::V4).expect("ok").expect("m").0,
        "skip-interface=^br-.*"
    );
}

#[test]
fn what_the_installation_sets_wins() {
    let doc = "kind: Installation\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4:\n      interface: ens.*\n    \
               nodeAddressAutodetectionV6:\n      cidrs: [\"fd00::/8\", \"2001:db8::/32\"]\n";
    assert_eq!(method(doc, Family::V4).expect("ok").expect("m").0, "interface=ens.*");
    assert_eq!(
        method(doc, Family::V6).expect("ok").expect("m").0,
        "cidr=fd00::/8,2001:db8::/32"
    );
    let k =
        "kind: Installation\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4: {kubernetes: NodeInternalIP}\n";
    assert_eq!(
        method(k, Family::V4).expect("ok").expect("m").0,
        "kubernetes-internal-ip"
    );
}

#[test]
fn what_the_operator_rejects_is_rejected_with_its_message() {
    for (doc, says) in [
        (
            "kind: Installation\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4:\n      skipInterface: eth9\n      cidrs: [10.0.0.0/8]\n",
            "no more than one node address autodetection method can be specified per-family",
        ),
        (
            "kind: Installation\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4:\n      interface: ens.*\n      firstFound: true\n",
            "no more than one node address autodetection method can be specified per-family",
        ),
        (
            "kind: Installation\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4:\n      cidrs: [10.0.0.0/33]\n",
            "invalid CIDR provided for node address autodetection: 10.0.0.0/33",
        ),
    ] {
        let e = method(doc, Family::V4).expect_err("rejected");
        assert!(matches!(e, InstallationError::Rejected { family: 4, .. }), "{e:?}");
        assert!(e.to_string().contains(says), "{e}");
    }
}

#[test]
fn a_misspelt_key_is_an_error_with_its_line() {
    let doc = "kind: Installation\nspec:\n  calicoNetwork:\n    nodeAddressAutodetectionV4:\n      interfce: ens.*\n";
    let e = method(doc, Family::V4).expect_err("rejected");
    assert!(matches!(e, InstallationError::Yaml(_)), "{e:?}");
    let e = e.to_string();
    assert!(e.contains("interfce") && e.contains("line 5"), "{e}");
}

#[test]
fn a_file_without_an_installation_says_what_it_holds() {
    let e = method("kind: APIServer\nspec: {}\n", Family::V4).expect_err("none");
    assert!(matches!(e, InstallationError::NoInstallation(_)), "{e:?}");
    let e = e.to_string();
    assert!(e.contains("no Installation document") && e.contains("APIServer"), "{e}");
}
