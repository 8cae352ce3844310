//! Pages of the system tablespace with a fixed place: TRX_SYS (page 5), the change buffer header (page 3), the dictionary header (page 7).

pub mod dict_hdr;
pub mod ibuf_header;
pub mod trx_sys;
