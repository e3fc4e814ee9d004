// libnfc, the free NFC library (libnfc.so): devices, initiator mode, raw frames.
// The include and library paths come from pkg-config (libnfc.pc, which requires libusb).
#include <nfc/nfc.h>
