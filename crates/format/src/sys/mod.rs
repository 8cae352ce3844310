//! Pages of the system tablespace with a fixed place: TRX_SYS (page 5), the change buffer header (page 3), the dictionary header (page 7); and the change buffer bitmap every tablespace has.

pub mod dict_hdr;
pub mod ibuf_bitmap;
pub mod ibuf_header;
pub mod trx_sys;
