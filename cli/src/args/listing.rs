//! The listings (`decode`, `timeline`, `who`): their flags, tshark's
//! selection options (-Y, -e, -T, -c) and the help that names each
//! listing's filter fields.

use clap::{Args, ValueEnum};

use super::common::{InputArgs, ModelArgs, OutputFormat};

#[derive(Debug, Args)]
#[command(
    mut_arg("filter", |a| a.help(filter_help(Listing::Decode))),
    mut_arg("fields", |a| a.help(fields_help(Listing::Decode))),
    after_long_help = listing_guide(Listing::Decode)
)]
pub struct DecodeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format: text lines like `ip monitor` (the default), or JSON Lines (one object
    /// per message).
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    /// Also list every attribute by name (IFLA_IFNAME, ...) with its value typed as
    /// netlink-packet-route decodes it (raw bytes where no crate can); -V as in tshark.
    #[arg(long, short = 'V')]
    pub attrs: bool,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// The three listings that take filters and field columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    Decode,
    Timeline,
    Who,
}

impl Listing {
    /// The fields this listing's records have.
    pub fn fields(self) -> &'static [nlorder::filter::Field] {
        use nlorder::filter::Field;
        match self {
            Listing::Decode => Field::MESSAGE,
            Listing::Timeline => Field::CHANGE,
            Listing::Who => Field::REQUEST,
        }
    }

    /// A filter that works on this listing (and keeps records of the
    /// fixtures its test runs it on).
    pub fn example(self) -> &'static str {
        match self {
            Listing::Decode => r#"type == RTM_NEWADDR && dev == "eth0""#,
            Listing::Timeline => "object == addr && change == added",
            Listing::Who => "program == go-net && dump",
        }
    }

    /// Field columns that work on this listing.
    pub fn columns(self) -> &'static str {
        match self {
            Listing::Decode => "packet,type,dev,addr",
            Listing::Timeline => "packet,change,object,dev",
            Listing::Who => "packet,program,type,family",
        }
    }

    fn names(self) -> String {
        let names: Vec<&str> = self.fields().iter().map(|f| f.name()).collect();
        names.join(", ")
    }
}

/// `-Y`'s help on one listing: an example that works there, and its fields.
fn filter_help(listing: Listing) -> String {
    format!(
        "Only the records this display filter keeps, e.g. `{}`. Fields: {}. \
         `nlorder -G values` lists the names fields take; FILTERS below has the grammar",
        listing.example(),
        listing.names()
    )
}

/// `-e`'s help on one listing.
fn fields_help(listing: Listing) -> String {
    format!(
        "Print tab-separated columns of these fields instead of whole lines (comma-separated or \
         repeated, like tshark's `-e`), e.g. `-e {}`",
        listing.columns()
    )
}

/// The filter grammar and field list, at the end of a listing's long help
/// and man page.
fn listing_guide(listing: Listing) -> String {
    let mut s = String::from(
        "FILTERS (-Y)\n  \
         A test is FIELD OP VALUE, FIELD in {V V LO..HI}, or FIELD alone (true when the record has \
         it). OP is == != < <= > >= (or eq ne lt le gt ge), contains, or matches (~, a regular \
         expression). Tests join with && (and), || (or), ! (not) and parentheses. VALUE is a \
         number, an address or prefix (10.0.0.0/8 matches every address in it), a name, or \
         \"quoted text\". A name a field cannot take is refused (exit 2) with the close ones; \
         `nlorder -G values` lists them. As in tshark, a comparison on a field the record does \
         not have is false; tshark's names frame.number, frame.time_epoch, netlink.hdr_type, \
         netlink-route.nltype, netlink.hdr_pid, netlink.hdr_seq and netlink.hdr_len are accepted.\n\n\
         FIELDS\n",
    );
    for &f in listing.fields() {
        s.push_str(&format!(
            "  {:<10} {}\n",
            f.name(),
            nlorder::report::fields::describe(f)
        ));
    }
    s.push_str(&format!(
        "\nEXAMPLE\n  nlorder {} -Y '{}' -e {} CAPTURE\n",
        match listing {
            Listing::Decode => "decode",
            Listing::Timeline => "timeline",
            Listing::Who => "who",
        },
        listing.example(),
        listing.columns()
    ));
    s
}

/// Which records a listing shows, and how: tshark's habits.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Only the records this display filter keeps (each listing's help names its fields).
    #[arg(short = 'Y', long = "filter", value_name = "EXPR")]
    pub filter: Option<String>,
    /// Print tab-separated columns of these fields instead of whole lines (comma-separated or
    /// repeated, like tshark's `-e`).
    #[arg(short = 'e', long = "fields", value_name = "FIELD", action = clap::ArgAction::Append)]
    pub fields: Vec<String>,
    /// Output as tshark's -T names it: text, fields (the -e columns; -e required), json or ek
    /// (both one JSON object per line, as ek prints them; not tshark's layout). Not with --format.
    #[arg(short = 'T', value_enum, value_name = "FORMAT")]
    pub output: Option<TsharkFormat>,
    /// Read only the first N packets (capture records, as `decode` numbers them), as tshark's
    /// -c does: the filter picks among their records. N is 1 or more.
    #[arg(short = 'c', long = "count", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
}

/// tshark's -T formats nlorder has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TsharkFormat {
    Text,
    Fields,
    Json,
    Ek,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("filter", |a| a.help(filter_help(Listing::Timeline))),
    mut_arg("fields", |a| a.help(fields_help(Listing::Timeline))),
    after_long_help = listing_guide(Listing::Timeline)
)]
pub struct TimelineArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Output format: one line per change (the default), or one JSON object per line and a
    /// last one, `"change": "end"`, with the warnings and assumptions.
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    #[command(flatten)]
    pub select: SelectArgs,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("filter", |a| a.help(filter_help(Listing::Who))),
    mut_arg("fields", |a| a.help(fields_help(Listing::Who))),
    after_long_help = listing_guide(Listing::Who)
)]
pub struct WhoArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format: a line per request and per look (the default), or one JSON document.
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    #[command(flatten)]
    pub select: SelectArgs,
}
