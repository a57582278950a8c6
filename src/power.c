/* power: NVML through dlopen (see power.h). */
#include "power.h"
#include "err.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NVML's types and calls as its API documents them (nvml.h is not part of the CUDA toolkit here). */
typedef int nvml_ret;
typedef struct nvml_device *nvml_device;
enum { NVML_OK = 0, NVML_CLOCK_SM = 1 };

struct dlb_power {
	void *lib;
	nvml_device dev;
	nvml_ret (*shutdown)(void);
	nvml_ret (*energy)(nvml_device, unsigned long long *);
	nvml_ret (*power)(nvml_device, unsigned *);
	nvml_ret (*clock)(nvml_device, int, unsigned *);
	nvml_ret (*reasons)(nvml_device, unsigned long long *);
	const char *(*errstr)(nvml_ret);
};

#define NVML_CHECK(p, call)                                                                                   \
	do {                                                                                                  \
		nvml_ret e_ = (call);                                                                         \
		if (e_ != NVML_OK)                                                                            \
			DLB_FAIL(DLB_E_VENDOR, "%s: NVML error %d (%s)", #call, e_,                           \
				 (p)->errstr ? (p)->errstr(e_) : "?");                                        \
	} while (0)

int dlb_power_open(const char *pci, struct dlb_power **out, char *why, size_t why_len)
{
	int rc = 0;
	struct dlb_power *p = NULL;
	*out = NULL;
	if (!pci || !why || why_len == 0)
		DLB_FAIL(DLB_E_USAGE, "dlb_power_open: no PCI bus id");
	why[0] = 0;
	if (!(p = calloc(1, sizeof *p)))
		DLB_FAIL(ENOMEM, "out of memory");
	if (!(p->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL))) {
		snprintf(why, why_len, "no NVML (libnvidia-ml.so.1: %s)", dlerror());
		goto fail;
	}
	nvml_ret (*init)(void) = (nvml_ret(*)(void))dlsym(p->lib, "nvmlInit_v2");
	nvml_ret (*by_pci)(const char *, nvml_device *) =
		(nvml_ret(*)(const char *, nvml_device *))dlsym(p->lib, "nvmlDeviceGetHandleByPciBusId_v2");
	p->shutdown = (nvml_ret(*)(void))dlsym(p->lib, "nvmlShutdown");
	p->errstr = (const char *(*)(nvml_ret))dlsym(p->lib, "nvmlErrorString");
	p->energy = (nvml_ret(*)(nvml_device, unsigned long long *))dlsym(p->lib, "nvmlDeviceGetTotalEnergyConsumption");
	p->power = (nvml_ret(*)(nvml_device, unsigned *))dlsym(p->lib, "nvmlDeviceGetPowerUsage");
	p->clock = (nvml_ret(*)(nvml_device, int, unsigned *))dlsym(p->lib, "nvmlDeviceGetClockInfo");
	p->reasons = (nvml_ret(*)(nvml_device, unsigned long long *))dlsym(p->lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!p->reasons) /* the older name of the same call */
		p->reasons = (nvml_ret(*)(nvml_device, unsigned long long *))dlsym(p->lib,
										 "nvmlDeviceGetCurrentClocksThrottleReasons");
	if (!init || !by_pci || !p->shutdown) {
		snprintf(why, why_len, "NVML without nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2");
		goto fail;
	}
	nvml_ret e = init();
	if (e != NVML_OK) {
		snprintf(why, why_len, "nvmlInit_v2: NVML error %d (%s)", e, p->errstr ? p->errstr(e) : "?");
		goto fail;
	}
	if ((e = by_pci(pci, &p->dev)) != NVML_OK) {
		snprintf(why, why_len, "nvmlDeviceGetHandleByPciBusId_v2(%s): NVML error %d (%s)", pci, e,
			 p->errstr ? p->errstr(e) : "?");
		p->shutdown();
		goto fail;
	}
	*out = p;
	return 0;
fail:
	if (p && p->lib)
		dlclose(p->lib);
	free(p);
	return rc;
}

int dlb_power_read(struct dlb_power *p, struct dlb_power_sample *s)
{
	int rc = 0;
	memset(s, 0, sizeof *s);
	unsigned long long e = 0, r = 0;
	unsigned u = 0;
	if (p->energy && p->energy(p->dev, &e) == NVML_OK) {
		s->energy_mj = e;
		s->have_energy = 1;
	}
	if (p->power && p->power(p->dev, &u) == NVML_OK) {
		s->power_mw = u;
		s->have_power = 1;
	}
	if (p->clock && p->clock(p->dev, NVML_CLOCK_SM, &u) == NVML_OK) {
		s->sm_mhz = u;
		s->have_clock = 1;
	}
	if (p->reasons && p->reasons(p->dev, &r) == NVML_OK) {
		s->reasons = r;
		s->have_reasons = 1;
	}
	if (!s->have_energy && !s->have_power && !s->have_clock && p->power)
		NVML_CHECK(p, p->power(p->dev, &u)); /* nothing readable: say why */
fail:
	return rc;
}

int dlb_power_energy(struct dlb_power *p, uint64_t *mj)
{
	unsigned long long e = 0;
	if (!p || !p->energy || p->energy(p->dev, &e) != NVML_OK)
		return DLB_E_NOTFOUND;
	*mj = e;
	return 0;
}

void dlb_power_close(struct dlb_power *p)
{
	if (!p)
		return;
	if (p->shutdown)
		p->shutdown();
	if (p->lib)
		dlclose(p->lib);
	free(p);
}

void dlb_clock_reasons_text(uint64_t reasons, char *buf, size_t len)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} names[] = {{DLB_CLOCK_APP_SETTING, "app_clocks"},	 {DLB_CLOCK_SW_POWER_CAP, "sw_power_cap"},
		     {DLB_CLOCK_HW_SLOWDOWN, "hw_slowdown"},	 {DLB_CLOCK_SYNC_BOOST, "sync_boost"},
		     {DLB_CLOCK_SW_THERMAL, "sw_thermal"},	 {DLB_CLOCK_HW_THERMAL, "hw_thermal"},
		     {DLB_CLOCK_HW_POWER_BRAKE, "hw_power_brake"}, {DLB_CLOCK_DISPLAY_SETTING, "display_clocks"}};
	size_t n = 0;
	if (len == 0)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (reasons & names[i].bit) {
			int w = snprintf(buf + n, len - n, "%s%s", n ? "+" : "", names[i].name);
			if (w < 0 || (size_t)w >= len - n)
				break;
			n += (size_t)w;
		}
	if (n == 0)
		snprintf(buf, len, "none");
}
