/* power: the GPU's power, SM clock, clock-event (throttle) reasons and energy counter, read through NVML
 * (libnvidia-ml.so.1, opened with dlopen at run time: the binary starts on machines without a driver, and a
 * machine without NVML measures nothing rather than a guess). The few NVML declarations it needs are its own. */
#ifndef DLB_POWER_H
#define DLB_POWER_H
#include <stddef.h>
#include <stdint.h>

struct dlb_power;

/* One reading. have_energy: the GPU has an energy counter (Volta and later). */
struct dlb_power_sample {
	uint64_t energy_mj; /* millijoules since the driver was loaded */
	unsigned power_mw;  /* the power draw the driver reports (averaged over its own short window) */
	unsigned sm_mhz;
	uint64_t reasons;   /* DLB_CLOCK_* bits: why the clocks are below their maximum */
	int have_energy, have_power, have_clock, have_reasons;
};

/* The clock-event reasons dlbtune names (NVML's bit values). */
enum {
	DLB_CLOCK_IDLE = 0x1,
	DLB_CLOCK_APP_SETTING = 0x2,
	DLB_CLOCK_SW_POWER_CAP = 0x4,
	DLB_CLOCK_HW_SLOWDOWN = 0x8,
	DLB_CLOCK_SYNC_BOOST = 0x10,
	DLB_CLOCK_SW_THERMAL = 0x20,
	DLB_CLOCK_HW_THERMAL = 0x40,
	DLB_CLOCK_HW_POWER_BRAKE = 0x80,
	DLB_CLOCK_DISPLAY_SETTING = 0x100,
};

/* NVML's view of the GPU at PCI bus id `pci` ("0000:3b:00.0", as cudaDeviceGetPCIBusId writes it). *out is
 * NULL (and 0 returned) where NVML or the GPU is not there: why says so. An error only for a bad argument. */
int dlb_power_open(const char *pci, struct dlb_power **out, char *why, size_t why_len);
/* 0, or DLB_E_VENDOR (with the NVML error at file:line) when no field could be read. */
int dlb_power_read(struct dlb_power *p, struct dlb_power_sample *s);
/* The energy counter alone (millijoules since the driver was loaded), as fast as NVML gives it: the burst's
 * poller times each read of it. DLB_E_NOTFOUND where the GPU has none. */
int dlb_power_energy(struct dlb_power *p, uint64_t *mj);
void dlb_power_close(struct dlb_power *p);
/* The reasons' names joined by '+' ("sw_power_cap+hw_slowdown"), "none" for 0; the GPU being idle is left
 * out (an idle moment between launches is not a throttle). */
void dlb_clock_reasons_text(uint64_t reasons, char *buf, size_t len);
#endif
