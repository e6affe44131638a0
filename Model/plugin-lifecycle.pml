/*
 * The lifecycle of one plugin of a plugin folder, as BeeHive implements it (Sources/BeeHive/PluginLifecycle.swift,
 * RoutePlaceholders.swift, Hive.swift's loadPlugin/unloadPlugin/deliver, Hive+PluginDirectories.swift): route
 * lookups from several threads that find it through its placeholder and load it on first use, a `loadPlugin`
 * of the same file, an unload and a refresh, in every interleaving.
 *
 * The lifecycle's lock is `atomic` here: every transition of PluginLifecycle is one critical section of the
 * code, so one atomic step of the model. Waiting on its condition is a guard at the start of an atomic step,
 * which blocks until another step changes the phase. The deliveries' queue is the `delivering` lock.
 *
 * The plugin declares one route. See docs/internals/plugin-lifecycle.md for the states and the invariants.
 *
 * scripts/check-model runs the exhaustive search: spin -a, cc pan.c, ./pan.
 */

#ifndef FIRST_USES
#define FIRST_USES 2
#endif

mtype = { NONE, LOADING, LOADED, UNLOADING, FAILED };   /* PluginLifecycle's phase of the folder's plugin */
mtype = { WAITING, HANDLED, UNMATCHED, UNAVAILABLE };   /* what a route lookup answered */

mtype phase = NONE;
byte count = 0;             /* the lifecycle's count of loads (State.loaded[identity].count) */
byte life = 0;              /* the number of the current life (Load.generation); a new one at each first load */
bool alive = false;         /* State.loaded holds the plugin: its life `life` is current */
bool delivered = false;     /* the first load of the current life has delivered its records */
byte loaderReferences = 0;  /* the dynamic loader's references to the object */
bool mapped = false;        /* the object is mapped */
bool present = false;       /* the registry's last walk saw the object */
bool retired = false;       /* the registry retired the object's records (retireObjects) */
bool reachable = false;     /* the route is in the hive's router: a lookup reaches the plugin's handler */
bool pending = true;        /* the folder's placeholders are not made yet (made at the first route lookup) */
bool placeholder = false;   /* the route's placeholder is among those of unloaded plugins: a miss loads it */
bool answered = false;      /* it is among those of loaded plugins: a miss finds the load done */
byte loaders = 0;           /* threads running the loader for the plugin's first use */
byte loadsCounted = 0;      /* ghost: loads counted */
byte unloadsCounted = 0;    /* ghost: unloads counted */
byte retirements = 0;       /* ghost: unloads that retired the plugin */
byte folderLife = 0;        /* ghost: the life a first use marked loaded (0: none) */
byte finished = 0;

bool delivering = false;    /* Hive.deliveries: one delivery at a time */

inline lock(held) { atomic { !held -> held = true } }
inline unlock(held) { held = false }

/* AnnotationRegistry.refresh(): the walk sees the object while it is mapped. */
inline walk() { present = mapped }

/* One step of Hive.deliver (synchronize): the router holds the records of the objects the registry has and has
   not retired. */
inline synchronize() { reachable = present && !retired }

/* RoutePlaceholders.makePending: a placeholder made late goes on the side the phase says. */
inline makePending() {
    if
    :: pending ->
        if
        :: phase == LOADED || phase == UNLOADING -> answered = true
        :: else -> placeholder = true
        fi;
        pending = false
    :: else -> skip
    fi
}

/* dlclose: the loader unmaps the object with its last reference. */
inline release() {
    atomic {
        loaderReferences--;
        if
        :: loaderReferences == 0 -> mapped = false
        :: else -> skip
        fi
    }
}

/* Hive.load(atPath:): dlopen, then PluginLifecycle.countLoad; the first load walks and reinstates in the same
   step, and delivers; a later load waits for that delivery. `isNew` says whether this load delivers the
   records; `myLife` is the life it counted for. */
inline openAndCount(isNew, myLife) {
    atomic { loaderReferences++; mapped = true };
    atomic {
        if
        :: alive -> count++; isNew = false
#ifndef SPLIT_REINSTATE
        :: else -> count = 1; alive = true; delivered = false; life++; isNew = true; walk(); retired = false
#else
        :: else -> count = 1; alive = true; delivered = false; life++; isNew = true
#endif
        fi;
        myLife = life;
        loadsCounted++
    }
#ifdef SPLIT_REINSTATE
    /* The old protocol: the walk and the reinstatement after the count, outside its critical section. */
    if
    :: isNew -> walk(); retired = false
    :: else -> skip
    fi;
#endif
    if
    :: isNew ->
        lock(delivering); synchronize(); unlock(delivering);
        atomic { if :: alive && life == myLife -> delivered = true :: else -> skip fi }
    :: else ->
        release();    /* one handle per plugin: the extra one is closed */
        /* PluginLifecycle.waitUntilDelivered: until the life's first load delivered, or the life ended */
        atomic { delivered || !alive || life != myLife }
    fi
}

/* Router.route of a URL only the plugin's route matches: on a miss, PluginLifecycle.route(matching:), then
   PluginLifecycle.load, which loads the plugin unless it is loaded, and routing once more after it. */
proctype FirstUse() {
    mtype outcome = WAITING;
    byte retirementsBefore = retirements;
    byte myLife;
    bool found, mine, failed, isNew;

    if
    :: reachable -> outcome = HANDLED; goto done
    :: else -> skip
    fi;
    atomic { makePending(); found = placeholder || answered }
    if
    :: !found -> outcome = UNMATCHED; goto done
    :: else -> skip
    fi;
    /* Waits while a load or an unload is under way. */
    atomic {
#ifndef STALE_UNLOAD
        phase != LOADING && phase != UNLOADING;
        if
        :: phase == NONE -> phase = LOADING; mine = true
#else
        /* The old protocol: an unload under way was not waited for. */
        phase != LOADING;
        if
        :: phase == NONE || phase == UNLOADING -> phase = LOADING; mine = true
#endif
        :: phase == LOADED || phase == FAILED -> mine = false
        fi
    }
    if
    :: !mine && phase == FAILED -> outcome = UNAVAILABLE; goto done
    :: !mine && phase != FAILED -> goto again
    :: else -> skip
    fi;
    /* No lock held: DeferredPlugins.open's checks, then Hive.load(atPath:), which runs constructors. */
    atomic { loaders++; assert(loaders == 1) }
    if
    :: true -> failed = false; openAndCount(isNew, myLife)
    :: true -> failed = true    /* the file changed since it was indexed, or the loader refused it */
    fi;
    atomic { loaders-- };
    /* The end of the load: loaded if the life it counted is still current, else deferred again. */
    atomic {
        if
        :: failed -> phase = FAILED
        :: !failed && alive && life == myLife ->
            phase = LOADED;
            folderLife = myLife;
            if
            :: placeholder -> placeholder = false; answered = true
            :: else -> skip
            fi
        :: else -> phase = NONE
        fi
    }
    if
    :: failed -> outcome = UNAVAILABLE; goto done
    :: else -> skip
    fi;
again:
    if
    :: reachable -> outcome = HANDLED
    :: else -> outcome = UNMATCHED
    fi;
done:
    /* Every waiter gets an outcome; a lookup is unmatched only when the plugin was unloaded meanwhile. */
    assert(outcome != WAITING);
    assert(outcome != UNMATCHED || retirements != retirementsBefore);
    atomic { finished++ }
}

/* Hive.loadPlugin(atPath:) of the folder's file, by the app. */
proctype Load() {
    byte myLife;
    bool isNew;
    openAndCount(isNew, myLife);
    atomic { finished++ }
}

/* Hive.unloadPlugin: PluginLifecycle.countUnload, then the delivery: the records leave, dlclose, the walk sees
   it gone, PluginLifecycle.finishUnload, and the delivery's last step. */
proctype Unload() {
    bool leaving, ofFolder;

    /* Plugin.loadedIdentity: dlopen with RTLD_NOLOAD. */
    if
    :: !mapped -> goto done
    :: else -> skip
    fi;
    atomic {
        if
        :: count == 0 -> leaving = false    /* pluginNotLoaded */
        :: count > 1 -> count--; unloadsCounted++; leaving = false
        :: count == 1 ->
            count = 0; alive = false; unloadsCounted++; leaving = true; retirements++;
            retired = true;     /* retireObjects */
            if
            :: phase == LOADED -> phase = UNLOADING; ofFolder = true
            :: else -> ofFolder = false
            fi
        fi
    }
    if
    :: !leaving -> goto done
    :: else -> skip
    fi;
    lock(delivering);
    synchronize();
    release();
    walk();
    atomic {
        if
#ifndef STALE_UNLOAD
        :: ofFolder && phase == UNLOADING && alive -> phase = LOADED
        :: ofFolder && phase == UNLOADING && !alive ->
#else
        /* The old protocol: the last step deferred the plugin again without looking whether it still was unloaded. */
        :: ofFolder ->
#endif
            phase = NONE;
            answered = false;
            if
            :: !pending -> placeholder = true
            :: else -> skip
            fi
        :: else -> skip
        fi
    }
    synchronize();
    unlock(delivering);
done:
    atomic { finished++ }
}

/* Hive.refresh() from another thread. */
proctype Refresh() {
    walk();
    lock(delivering);
    synchronize();
    unlock(delivering);
    atomic { finished++ }
}

/* At every step: nothing of an unmapped object is reachable (its handler's code would be gone), the plugin is
   loaded by at most one first use at a time, the count is the loads less the unloads, and a life that a first
   use marked loaded stays marked until its last unload. The guard is evaluated in every state of the search, so
   the assertion fails in the first state where the invariant does not hold. */
#define marked (!(alive && folderLife == life) || phase == LOADED || phase == UNLOADING)
#define invariant ((!reachable || mapped) && loaders <= 1 && count == loadsCounted - unloadsCounted && alive == (count > 0) && marked)

active proctype Watch() {
end:
    atomic { !invariant -> assert(invariant) }
}

init {
    byte i;
    atomic {
        for (i : 1 .. FIRST_USES) { run FirstUse() }
        run Load();
        run Unload();
        run Refresh()
    }
    finished == FIRST_USES + 3;
    /* Once every thread is done: no load or unload is left under way; every record of a loaded plugin is
       reachable and nothing of an unloaded one; a plugin the folder marks loaded is loaded, and its placeholder
       answers; one deferred again has its placeholder back, so that a miss loads it again. */
    assert(phase != LOADING && phase != UNLOADING && loaders == 0);
    assert(reachable == (count > 0));
    assert(phase != LOADED || count > 0);
    assert(phase != LOADED || (answered && !placeholder) || pending);
    assert(phase != NONE || count > 0 || ((placeholder || pending) && !answered));
    assert(!(present && !retired) || count > 0)
}
