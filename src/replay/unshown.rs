//! What an answer depends on that no message in the capture shows: the
//! addresses or routes of a family, the routes of a table, the names,
//! flags and state of links known only by the index other messages name.
//!
//! Contract: a pure function of the model and what a replay reads
//! ([`Reads`], declared by each program's chooser); [`check`] lists what
//! of that the capture did not show, so that the answer line says it
//! instead of answering from a table the capture does not hold.

use super::family::Family;
use crate::model::Model;
use crate::netlink::values::TableId;

/// What a replay reads of the tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reads {
    /// The families whose addresses it reads.
    pub addresses: Vec<Family>,
    /// The families whose routes of table main it reads (its default-route
    /// walk, or the kernel's lookup from the default rules), in the order it
    /// reads them.
    pub main_routes: Vec<Family>,
    /// Whether a family read after another matters only when the earlier
    /// gave no answer (apimachinery's walk: IPv4's defaults, then IPv6's).
    pub first_answer_ends: bool,
    /// Whether it filters links by name, flags or state.
    pub link_attributes: bool,
    /// Whether, matching an address rather than a link, it takes the first
    /// link of its walk that holds it: the links' order decides where an
    /// address is on several (calico-node's can-reach and
    /// kubernetes-internal-ip).
    pub order_where_shared: bool,
}

impl Reads {
    /// The addresses of `family` on links it filters by name or state (an
    /// interface walk; the default).
    pub fn walk(family: Family) -> Reads {
        Reads {
            addresses: vec![family],
            main_routes: Vec::new(),
            first_answer_ends: false,
            link_attributes: true,
            order_where_shared: false,
        }
    }

    /// Also the routes of table main of `families`, in that order.
    pub fn with_routes(mut self, families: &[Family]) -> Reads {
        self.main_routes = families.to_vec();
        self
    }

    /// A later family's routes matter only without an answer from an
    /// earlier one.
    pub fn first_answer_ends(mut self) -> Reads {
        self.first_answer_ends = true;
        self
    }

    /// Without link names, flags or state.
    pub fn no_link_attributes(mut self) -> Reads {
        self.link_attributes = false;
        self
    }

    /// The first link of the walk holding the address it matches: the
    /// order of links matters where an address is on several.
    pub fn order_where_shared(mut self) -> Reads {
        self.order_where_shared = true;
        self
    }
}

/// One thing no message in the capture shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unshown {
    /// The addresses of a family.
    Addresses(Family),
    /// The routes of a family in a table (`table` shown: the tables some
    /// message showed of it, empty when none).
    Routes {
        /// The family.
        family: Family,
        /// The table read.
        table: TableId,
        /// The tables of that family some message did show.
        shown: Vec<TableId>,
    },
    /// Links known only by the index other messages name (no link message
    /// shows their names, flags or state).
    LinkAttributes(Vec<String>),
    /// No complete link dump: which links the host has, and the kernel's
    /// order of them, only as far as other messages show them.
    Links,
    /// The order of the IPv6 addresses of these links: addresses made from
    /// router advertisements, with no prefix route notification to tell
    /// when they were made.
    Ipv6Order(Vec<String>),
}

/// What of `reads` the capture does not show; `answered`: the family of
/// the answer, where there is one.
pub fn check(model: &Model, reads: &Reads, answered: Option<Family>) -> Vec<Unshown> {
    let mut v = Vec::new();
    for f in &reads.addresses {
        if !model.addresses_shown_of(f.af()) {
            v.push(Unshown::Addresses(*f));
        }
    }
    if reads.addresses.contains(&Family::V6) {
        let names: Vec<String> = model
            .ipv6_order_unshown()
            .into_iter()
            .map(|i| model.ifname(i))
            .collect();
        if !names.is_empty() {
            v.push(Unshown::Ipv6Order(names));
        }
    }
    for f in &reads.main_routes {
        if !model.routes_shown_in(f.af(), TableId::Main) {
            v.push(Unshown::Routes {
                family: *f,
                table: TableId::Main,
                shown: model
                    .route_tables_shown(f.af())
                    .map(<[TableId]>::to_vec)
                    .unwrap_or_default(),
            });
        }
        if reads.first_answer_ends && answered == Some(*f) {
            break;
        }
    }
    if (reads.link_attributes || reads.order_where_shared && shared_address(model, &reads.addresses))
        && !model.links_complete()
    {
        v.push(Unshown::Links);
    }
    if reads.link_attributes {
        let names: Vec<String> = model
            .links()
            .iter()
            .filter(|l| l.placeholder)
            .map(|l| l.display_name())
            .collect();
        if !names.is_empty() {
            v.push(Unshown::LinkAttributes(names));
        }
    }
    v
}

/// Whether an address of these families is on more than one link.
fn shared_address(model: &Model, families: &[Family]) -> bool {
    families.iter().any(|f| {
        let mut seen: Vec<(std::net::IpAddr, u32)> = model
            .addresses(Some(f.af()))
            .into_iter()
            .map(|a| (a.address, a.index))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.windows(2).any(|w| matches!(w, [a, b] if a.0 == b.0))
    })
}

/// Whether the capture shows every family's addresses and routes of
/// table main, and every link it names by a link message: nothing a
/// replay reads can be missing.
pub fn everything_shown(model: &Model) -> bool {
    [Family::V4, Family::V6]
        .iter()
        .all(|f| model.addresses_shown_of(f.af()) && model.routes_shown_in(f.af(), TableId::Main))
        && !model.links().iter().any(|l| l.placeholder)
        && model.links_complete()
        && model.ipv6_order_unshown().is_empty()
}
